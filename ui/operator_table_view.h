#pragma once
// The operator table's columns, laid out so that a laptop screen shows every one: the Dims column
// takes what the others leave, the name and tile columns fit their rows up to a cap (and stay as
// the user sizes them once dragged), and Phase hides while every row is a forward kernel.
#include <QSet>
#include <QTableView>

class QSortFilterProxyModel;

namespace gpuforecast::ui {

class OperatorTableModel;

class OperatorTableView : public QTableView {
    Q_OBJECT
public:
    // `shown` is `source` sorted and filtered, the model the view displays.
    OperatorTableView(OperatorTableModel* source, QSortFilterProxyModel* shown, QWidget* parent = nullptr);

private:
    void fitColumnsToRows();
    int widestText(int column) const;

    OperatorTableModel* source_;
    QSet<int> userSized_; // columns the user dragged: their width is the user's from then on
    bool fitting_ = false;
};

} // namespace gpuforecast::ui
