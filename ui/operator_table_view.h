#pragma once
// The operator table's columns, laid out so that a laptop screen shows as many as it can read:
// every column at its contents' width where the window holds them all (long Switch names whole on
// a wide screen); where it does not, the name, the tile and then Dims give way, each by the pixels
// still missing and down to a readable width (the table scrolls sideways beyond that). Phase
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
    // On new rows: which columns show, and each one's contents' width (a thousand rows of Switch
    // take a tenth of a second to measure, too slow to repeat while a window is dragged wider).
    void measureColumns();
    // A column's contents' width over every row of the source model, filtered out or not.
    int contentsWidth(int column) const;
    // On new rows, a new width or a drag: the widths measured, capped where all do not fit.
    void fitColumns();

    OperatorTableModel* source_;
    QMap<int, int> userWidths_; // columns the user dragged, and the width they gave them
    int nameWidth_ = 0, tileWidth_ = 0, dimsWidth_ = 0, othersWidth_ = 0; // as measured
    bool fitting_ = false;
};

} // namespace gpuforecast::ui
