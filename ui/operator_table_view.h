#pragma once
// The operator table's columns, laid out so that a laptop screen shows as many as it can read:
// every column at its contents' width where the window holds them all (long Switch names whole on
// a wide screen); where it does not, the name and tile columns are capped and Dims takes what the
// others leave, never less than a readable width (the table scrolls sideways instead). Phase
// hides while every row is a forward kernel, and a column the user drags keeps its width.
#include <QMap>
#include <QTableView>

class QSortFilterProxyModel;

namespace gpuforecast::ui {

class OperatorTableModel;

class OperatorTableView : public QTableView {
    Q_OBJECT
public:
    // `shown` is `source` sorted and filtered, the model the view displays.
    OperatorTableView(OperatorTableModel* source, QSortFilterProxyModel* shown, QWidget* parent = nullptr);

protected:
    bool viewportEvent(QEvent* event) override;

private:
    void fitColumns();

    OperatorTableModel* source_;
    QMap<int, int> userWidths_; // columns the user dragged, and the width they gave them
    bool fitting_ = false;
};

} // namespace gpuforecast::ui
