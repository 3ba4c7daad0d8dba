#include "operator_table_view.h"

#include "operator_table_model.h"

#include <algorithm>

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>

namespace gpuforecast::ui {

namespace {

// A column whose text matters from the left (the tile before its padding note, a GEMM's rows).
class ElideRightDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideRight;
    }
};

constexpr int kCellPadding = 16; // the style's margins either side of a cell's text, and a little air

} // namespace

OperatorTableView::OperatorTableView(OperatorTableModel* source, QSortFilterProxyModel* shown, QWidget* parent)
    : QTableView(parent), source_(source)
{
    setObjectName("operatorTable");
    setModel(shown);
    setSortingEnabled(true);
    sortByColumn(OperatorTableModel::TimeMs, Qt::DescendingOrder);
    QHeaderView* header = horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    // A fused chain's name ("attn.rope_q.cos+attn.rope_q.negate_half+...") sized to its contents
    // pushed the times off-screen: the name column fits its rows up to the longest name of the
    // bundled LLaMA-style graphs, and longer ones are elided in the middle. The user may widen it.
    header->setSectionResizeMode(OperatorTableModel::Name, QHeaderView::Interactive);
    // So is the tile: a GEMM priced padded says so there ("128x128 /5 (as 256x4096)"), and one such
    // row sized the column for all and pushed the columns right of it off-screen.
    header->setSectionResizeMode(OperatorTableModel::Tile, QHeaderView::Interactive);
    // Cut at the right, so a narrow column still shows the tile: elided in the middle like the names,
    // "128x64 /5 (as 64x6144)" read "128x6...6144)". The full text is the cell's tooltip.
    setItemDelegateForColumn(OperatorTableModel::Tile, new ElideRightDelegate(this));
    setTextElideMode(Qt::ElideMiddle);
    setWordWrap(false); // a narrowed column elides; wrapped cells were cut to half a line
    // Dims takes what the other columns leave (the cell's tooltip has it whole): sized to its
    // contents, it pushed Util. and Bound off a 1366 x 768 screen. Being the stretched section, it
    // also fills any blank strip right of the table. Cut at the right, so that narrowed it still
    // reads the batch count and the rows ("5120x4096 ..."), where the middle cut left "512...096".
    header->setSectionResizeMode(OperatorTableModel::Dims, QHeaderView::Stretch);
    setItemDelegateForColumn(OperatorTableModel::Dims, new ElideRightDelegate(this));
    // A row one line of text high, with the style's padding: eleven rows in view where there were eight.
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    verticalHeader()->hide();
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(header, &QHeaderView::sectionResized, this, [this](int column) {
        if (!fitting_ && (column == OperatorTableModel::Name || column == OperatorTableModel::Tile))
            userSized_.insert(column);
    });
    connect(shown, &QAbstractItemModel::modelReset, this, &OperatorTableView::fitColumnsToRows);
    fitColumnsToRows();
}

int OperatorTableView::widestText(int column) const
{
    int widest = 0;
    for (int row = 0; row < model()->rowCount(); ++row)
        widest = std::max(widest, fontMetrics().horizontalAdvance(model()->index(row, column).data().toString()));
    return widest + kCellPadding;
}

void OperatorTableView::fitColumnsToRows()
{
    // "fw" on every row of an inference pass says nothing, and its width is what Dims needs to
    // show a product's operands whole on a laptop screen.
    setColumnHidden(OperatorTableModel::Phase, !source_->showsBackwardKernels());
    // GPT-2's names and tiles are a third narrower than the caps; the width they leave goes to
    // Dims, which in a training step (Phase shown) was elided to "51...96".
    const int caps[][2] = {{OperatorTableModel::Name, fontMetrics().horizontalAdvance("attn.rope_q.rotate_half") + 12},
                           {OperatorTableModel::Tile, fontMetrics().horizontalAdvance("128x128 /10 (as") + kCellPadding}};
    fitting_ = true;
    for (const auto& [column, cap] : caps)
        if (!userSized_.contains(column))
            horizontalHeader()->resizeSection(
                column, std::clamp(widestText(column), horizontalHeader()->sectionSizeHint(column), std::max(cap, horizontalHeader()->sectionSizeHint(column))));
    fitting_ = false;
}

} // namespace gpuforecast::ui
