#include "operator_table_view.h"

#include "operator_table_model.h"

#include <algorithm>

#include <QEvent>
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
    // Measured here on new rows (measureColumns), not by Qt on every resize of the window: with
    // Switch's thousand training kernels that took 50 ms a step of a drag.
    header->setSectionResizeMode(QHeaderView::Fixed);
    // A fused chain's name ("attn.rope_q.cos+attn.rope_q.negate_half+...") or a padded tile
    // ("128x128 /5 (as 256x4096)") sized to its contents pushed the times off-screen: these two,
    // and Dims, are sized here (fitColumns), and the user may drag the first two wider.
    header->setSectionResizeMode(OperatorTableModel::Name, QHeaderView::Interactive);
    header->setSectionResizeMode(OperatorTableModel::Tile, QHeaderView::Interactive);
    header->setSectionResizeMode(OperatorTableModel::Dims, QHeaderView::Fixed);
    // Tile and Dims are cut at the right, so a narrow cell still reads the tile and the batch count
    // and rows ("5120x4096 ..."): cut in the middle they read "128x6...6144)" and "512...096".
    // Names are cut in the middle ("encoder.sp...expert.wo"). Every cell's tooltip has it whole.
    setItemDelegateForColumn(OperatorTableModel::Tile, new ElideRightDelegate(this));
    setItemDelegateForColumn(OperatorTableModel::Dims, new ElideRightDelegate(this));
    setTextElideMode(Qt::ElideMiddle);
    setWordWrap(false); // a narrowed column elides; wrapped cells were cut to half a line
    // A row one line of text high, with the style's padding: eleven rows in view where there were eight.
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    verticalHeader()->hide();
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(header, &QHeaderView::sectionResized, this, [this](int column, int, int width) {
        if (fitting_ || (column != OperatorTableModel::Name && column != OperatorTableModel::Tile))
            return;
        userWidths_[column] = width;
        fitColumns(); // Dims gives or takes the difference
    });
    connect(shown, &QAbstractItemModel::modelReset, this, &OperatorTableView::measureColumns);
    measureColumns();
}

bool OperatorTableView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Resize && !fitting_) // the window, the splitter or a scroll bar moved
        fitColumns();
    return QTableView::viewportEvent(event);
}

void OperatorTableView::measureColumns()
{
    QHeaderView* header = horizontalHeader();
    fitting_ = true;
    // "fw" on every row of an inference pass says nothing, and its width is what Dims needs to
    // show a product's operands whole on a laptop screen.
    setColumnHidden(OperatorTableModel::Phase, !source_->showsBackwardKernels());
    // Every column at its contents' width (the thousand rows Qt reads for it, as ResizeToContents would).
    header->resizeSections(QHeaderView::ResizeToContents);
    nameWidth_ = header->sectionSize(OperatorTableModel::Name);
    tileWidth_ = header->sectionSize(OperatorTableModel::Tile);
    dimsWidth_ = header->sectionSize(OperatorTableModel::Dims);
    othersWidth_ = header->length() - nameWidth_ - tileWidth_ - dimsWidth_;
    fitting_ = false;
    fitColumns();
}

void OperatorTableView::fitColumns()
{
    QHeaderView* header = horizontalHeader();
    const int name = userWidths_.value(OperatorTableModel::Name, nameWidth_);
    const int tile = userWidths_.value(OperatorTableModel::Tile, tileWidth_);
    const int room = viewport()->width();
    // Where all does not fit: the caps hold the longest names of the bundled LLaMA-style graphs
    // and a tile with its reduction split; Dims keeps at least a product's rows and reduction.
    const bool allFit = othersWidth_ + name + tile + dimsWidth_ <= room;
    const int nameShown = allFit || userWidths_.contains(OperatorTableModel::Name)
                              ? name
                              : std::min(name, fontMetrics().horizontalAdvance("attn.rope_q.rotate_half") + 12);
    const int tileShown = allFit || userWidths_.contains(OperatorTableModel::Tile)
                              ? tile
                              : std::min(tile, fontMetrics().horizontalAdvance("128x128 /10 (as") + kCellPadding);
    fitting_ = true;
    header->resizeSection(OperatorTableModel::Name, nameShown);
    header->resizeSection(OperatorTableModel::Tile, tileShown);
    header->resizeSection(OperatorTableModel::Dims,
                          std::max(room - othersWidth_ - nameShown - tileShown, fontMetrics().horizontalAdvance("16384x4096 · 4") + kCellPadding));
    fitting_ = false;
}

} // namespace gpuforecast::ui
