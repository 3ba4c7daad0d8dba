#include "operator_table_view.h"

#include "operator_table_model.h"

#include <algorithm>

#include <QEvent>
#include <QHeaderView>
#include <QResizeEvent>
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
    // A column a few pixels too wide for the window scrolls by those pixels, not by a whole column
    // (a notch had hidden the 150 px name column to show the last 5 px of Bound).
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    connect(header, &QHeaderView::sectionResized, this, [this](int column, int, int width) {
        if (fitting_ || (column != OperatorTableModel::Name && column != OperatorTableModel::Tile))
            return;
        // Dims keeps its width through the drag, so the dragged border follows the pointer (Dims,
        // left of Tile, had given up what Tile took and Tile's right border stood still); the
        // next width the window takes refits around the dragged width.
        userWidths_[column] = width;
    });
    // The source's rows, not the filtered ones: measured under a filter and shown without it, the
    // columns had cut "memory (copy)" and "bw: grad input" until the next forecast.
    connect(source_, &QAbstractItemModel::modelReset, this, &OperatorTableView::measureColumns);
    measureColumns();
}

bool OperatorTableView::viewportEvent(QEvent* event)
{
    // The window, the splitter or the vertical scroll bar changed the width; a horizontal scroll
    // bar coming or going changes only the height, and refitting then would undo a drag.
    if (event->type() == QEvent::Resize && !fitting_) {
        const auto* resize = static_cast<QResizeEvent*>(event);
        if (resize->size().width() != resize->oldSize().width())
            fitColumns();
    }
    return QTableView::viewportEvent(event);
}

int OperatorTableView::contentsWidth(int column) const
{
    // What ResizeToContents measures, over every row of the source: the delegate's size of each
    // cell (text, margins), the grid line, and the header's own text.
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    const QAbstractItemDelegate* delegate = itemDelegateForColumn(column) ? itemDelegateForColumn(column) : itemDelegate();
    int width = 0;
    for (int row = 0; row < source_->rowCount(); ++row)
        width = std::max(width, delegate->sizeHint(option, source_->index(row, column)).width());
    return std::max(width + (showGrid() ? 1 : 0), horizontalHeader()->sectionSizeHint(column));
}

void OperatorTableView::measureColumns()
{
    QHeaderView* header = horizontalHeader();
    fitting_ = true;
    // "fw" on every row of an inference pass says nothing, and its width is what Dims needs to
    // show a product's operands whole on a laptop screen.
    setColumnHidden(OperatorTableModel::Phase, !source_->showsBackwardKernels());
    othersWidth_ = 0;
    for (int column = 0; column < source_->columnCount(); ++column) {
        if (isColumnHidden(column))
            continue;
        const int width = contentsWidth(column);
        if (column == OperatorTableModel::Name)
            nameWidth_ = width;
        else if (column == OperatorTableModel::Tile)
            tileWidth_ = width;
        else if (column == OperatorTableModel::Dims)
            dimsWidth_ = width;
        else {
            header->resizeSection(column, width);
            othersWidth_ += width;
        }
    }
    fitting_ = false;
    fitColumns();
}

void OperatorTableView::fitColumns()
{
    QHeaderView* header = horizontalHeader();
    const QFontMetrics metrics = fontMetrics();
    // The widths each column gives way to, in turn, while the whole table is wider than the
    // window: the name to the longest names of the bundled LLaMA-style graphs, the tile to one
    // with its reduction split, Dims to a product's rows and reduction, and last the name to two
    // thirds of its cap. Each gives only the pixels still missing, so a table a few pixels too
    // wide cuts a few names, not all of them (Switch at 1500 px had cut 767 names to 149 px
    // beside a Dims column 45 px wider than its text). A column the user dragged keeps its width.
    const int nameCap = std::max(metrics.horizontalAdvance("attn.rope_q.rotate_half"),
                                 metrics.horizontalAdvance("attn.rope_q.negate_half")) + kCellPadding;
    const int tileCap = metrics.horizontalAdvance("128x128 /10 (as") + kCellPadding;
    const int dimsFloor = metrics.horizontalAdvance("16384x4096 · 4") + kCellPadding;
    const bool nameDragged = userWidths_.contains(OperatorTableModel::Name);
    const bool tileDragged = userWidths_.contains(OperatorTableModel::Tile);
    int name = userWidths_.value(OperatorTableModel::Name, nameWidth_);
    int tile = userWidths_.value(OperatorTableModel::Tile, tileWidth_);
    int dims = dimsWidth_;
    int missing = othersWidth_ + name + tile + dims - viewport()->width();
    const auto giveWay = [&missing](int& width, int down, bool dragged) {
        if (missing <= 0 || dragged || width <= down)
            return;
        const int given = std::min(missing, width - down);
        width -= given;
        missing -= given;
    };
    giveWay(name, nameCap, nameDragged);
    giveWay(tile, tileCap, tileDragged);
    giveWay(dims, dimsFloor, false);
    giveWay(name, nameCap * 2 / 3, nameDragged);
    if (missing < 0) // room to spare: Dims takes it
        dims -= missing;
    fitting_ = true;
    header->resizeSection(OperatorTableModel::Name, name);
    header->resizeSection(OperatorTableModel::Tile, tile);
    header->resizeSection(OperatorTableModel::Dims, dims);
    fitting_ = false;
}

} // namespace gpuforecast::ui
