#include "main_window.h"

#include "autosave.h"
#include "breakdown_chart.h"
#include "compare_chart.h"
#include "csv_export.h"
#include "sensitivity_chart.h"
#include "waves_chart.h"
#include "efficiency_basis_box.h"
#include "gpu_identity_dialog.h"
#include "quantity_format.h"
#include "what_if_panel.h"
#include "roofline_chart.h"
#include "gpu_list_model.h"
#include "model_panel.h"
#include "operator_table_model.h"
#include "operator_table_view.h"
#include "spec_table_model.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/scenario.h"

#include <qcustomplot.h>

#include <QAction>
#include <QBuffer>
#include <QTemporaryDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QMenuBar>
#include <QCloseEvent>
#include <QFileInfo>
#include <QScreen>
#include <QSettings>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QHBoxLayout>
#include <QMimeData>
#include <QSortFilterProxyModel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QSignalBlocker>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace gpuforecast::ui {

namespace {

// A splitter keeps its panes' sizes when one's contents grow, and judges a pane's minimum without
// the height its wrapped labels need at its width: the Parallel box's note for a second server
// (three lines) came out cut off at the top and bottom. Whenever the pane's layout changes, its
// minimum becomes the height its contents need at its width: the splitter honours it, the
// scrolling column grows where the window is short, and a shorter note gives the height back.
// The same for a panel inside a pane's layout (splitter null): the what-if note, eight lines at
// the column's width, was squeezed to two in a 1366 x 768 window, and scrolling did not help.
void keepPaneTallEnough(QSplitter* splitter, QWidget* pane)
{
    auto fit = [splitter, pane] {
        const int need = pane->hasHeightForWidth() ? pane->heightForWidth(pane->width()) : pane->sizeHint().height();
        if (need > 0 && pane->minimumHeight() != need) {
            pane->setMinimumHeight(need);
            if (splitter)
                splitter->updateGeometry();
        }
    };
    struct Watcher : QObject {
        std::function<void()> fit;
        bool eventFilter(QObject*, QEvent* e) override
        {
            if (e->type() == QEvent::LayoutRequest || e->type() == QEvent::Resize)
                QTimer::singleShot(0, this, fit); // after the layout has settled
            return false;
        }
    };
    auto* watcher = new Watcher;
    watcher->setParent(pane);
    watcher->fit = fit;
    pane->installEventFilter(watcher);
}

// A scrolling column that never scrolls sideways must be as wide as its contents' minimum, and
// that minimum grows after start-up: the Parallel box opened on a LLaMA training step cut the
// GPU search field and the Export... button off at the right in a 1366 x 768 window. Whenever the
// contents' layout changes, the scroll area's minimum follows, and the splitter makes room.
void keepColumnWideEnough(QScrollArea* scroll, QWidget* contents)
{
    auto fit = [scroll, contents] {
        const int need = contents->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width();
        if (scroll->minimumWidth() != need)
            scroll->setMinimumWidth(need);
    };
    struct Watcher : QObject {
        std::function<void()> fit;
        bool eventFilter(QObject*, QEvent* e) override
        {
            if (e->type() == QEvent::LayoutRequest)
                QTimer::singleShot(0, this, fit); // after the layout has settled
            return false;
        }
    };
    fit();
    auto* watcher = new Watcher;
    watcher->setParent(contents);
    watcher->fit = fit;
    contents->installEventFilter(watcher);
}

// The open sheet's GPU was scrolled to before the GPU list had its height, which left a 1366 x 768
// window's list at MI210-P4, the open V100 and the four ticked GPUs out of view. Whenever the
// list's height changes, its current row is brought into view.
void keepCurrentRowInView(QAbstractItemView* view)
{
    struct Watcher : QObject {
        QAbstractItemView* view;
        bool eventFilter(QObject*, QEvent* e) override
        {
            if (e->type() == QEvent::Resize)
                QTimer::singleShot(0, this, [v = view] { v->scrollTo(v->currentIndex()); }); // after the layout has settled
            return false;
        }
    };
    auto* watcher = new Watcher;
    watcher->setParent(view);
    watcher->view = view;
    view->viewport()->installEventFilter(watcher);
}

// Settings in ~/.config/gpuforecast/gpuforecast.conf, named like the data folder. QSettings()
// takes the organisation name, which main() leaves unset (it would move the data folder to
// .../gpuforecast/gpuforecast), and so wrote to "~/.config/Unknown Organization/".
QString settingsName() { return QCoreApplication::applicationName(); }

// The status bar's line: every ticked GPU's step in one unit, or with more than four the fastest
// and the slowest (twenty GPUs were cut off mid-id, and the Compare chart lists them all).
QString stepTimesSummary(const ForecastSession& session)
{
    const auto held = session.forecasts();
    const auto& forecasts = *held;
    if (forecasts.empty())
        return {};
    const auto byTime = [](const ModelForecast& a, const ModelForecast& b) { return a.totalSeconds() < b.totalSeconds(); };
    const auto slowest = std::max_element(forecasts.begin(), forecasts.end(), byTime);
    const LatencyUnit unit = latencyUnitFor(slowest->totalSeconds() * 1e3);
    const auto entry = [&](const ModelForecast& m) {
        const QString id = QString::fromStdString(m.gpu);
        return QString("%1%2: %3%4")
            .arg(id, session.gpuNameMark(id), formatLatencyIn(m.totalSeconds() * 1e3, unit),
                 !m.fits()          ? QCoreApplication::translate("MainWindow", " (does not fit)")
                 : m.fitsTightly() ? QCoreApplication::translate("MainWindow", " (fits tightly)") // as the Compare bar says
                                   : QString());
    };
    if (forecasts.size() <= 4) {
        QStringList parts;
        for (const auto& m : forecasts)
            parts << entry(m);
        return parts.join("   ·   ");
    }
    // "Fastest" is the fastest GPU that can run the step: an MI300X the model did not fit was
    // announced as the fastest of ten.
    const auto fitting = std::count_if(forecasts.begin(), forecasts.end(), [](const ModelForecast& m) { return m.fits(); });
    auto fastest = forecasts.end();
    for (auto it = forecasts.begin(); it != forecasts.end(); ++it)
        if ((it->fits() || fitting == 0) && (fastest == forecasts.end() || byTime(*it, *fastest)))
            fastest = it;
    // GPU types, not GPUs: beside a layout of 16 GPUs, "8 GPUs" read as a count of cards.
    const QString count = fitting == qsizetype(forecasts.size())
                              ? QCoreApplication::translate("MainWindow", "%1 GPU types").arg(forecasts.size())
                              : QCoreApplication::translate("MainWindow", "%1 GPU types, the model fits on %2 of them")
                                    .arg(forecasts.size())
                                    .arg(fitting);
    return QCoreApplication::translate("MainWindow", "%1; fastest %2   ·   slowest %3 (Compare shows each)")
        .arg(count, entry(*fastest), entry(*slowest));
}

} // namespace

MainWindow::MainWindow(ForecastSession* session, QWidget* parent)
    : QMainWindow(parent), session_(session), undo_(new QUndoStack(this)), gpuModel_(new GpuListModel(session, this)),
      specModel_(new SpecTableModel(session, undo_, this)), operatorModel_(new OperatorTableModel(session, this)),
      modelPanel_(new ModelPanel(session, this)), gpuList_(new QListView(this)), specView_(new QTableView(this)),
      charts_(new QTabWidget(this)), breakdown_(new BreakdownChart(session, this)), compare_(new CompareChart(session, this)),
      sensitivity_(new SensitivityChart(session, this)), waves_(new WavesChart(session, this)),
      roofline_(new RooflineChart(session, this))
{
    setAcceptDrops(true);

    auto* modelBox = new QGroupBox(tr("Model"), this);
    (new QVBoxLayout(modelBox))->addWidget(modelPanel_);
    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(modelBox);
    left->addWidget(buildGpuPanel());
    keepPaneTallEnough(left, modelBox);

    charts_->addTab(breakdown_, tr("Breakdown"));
    charts_->addTab(compare_, tr("Compare"));
    charts_->addTab(waves_, tr("Waves"));
    charts_->addTab(roofline_, tr("Roofline"));
    charts_->addTab(sensitivity_, tr("Sensitivity"));
    // It forecasts the model twice per spec field: 33 ms for GPT-2 on every slider step, most of an
    // edit's time, spent on a tab nobody is looking at (gpuforecast-bench, BM_Gpt2SensitivityChart).
    sensitivity_->setRedrawOnlyWhenShown(true);

    auto* sorted = operatorView_ = new QSortFilterProxyModel(this);
    sorted->setSourceModel(operatorModel_);
    sorted->setSortRole(OperatorTableModel::SortRole);
    auto* ops = new OperatorTableView(operatorModel_, sorted, this);
    connect(ops->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this, sorted](const QModelIndex& row) {
        // Every chart hears of the pick; those that draw single kernels highlight it.
        // The row's place in the forecast's ops, not only its name: a training step has several
        // kernels under one name, and Waves showed the forward one for a picked backward row.
        const QString name = sorted->index(row.row(), OperatorTableModel::Name).data().toString();
        const int opIndex = row.isValid() ? sorted->mapToSource(row).row() : -1;
        pickOperatorInCharts(name, opIndex);
    });
    // A rebuilt table (another GPU's, new forecasts) had dropped the pick while Waves still showed
    // it: the same operator is picked again where the new table has it, else the charts let go too.
    connect(sorted, &QAbstractItemModel::modelReset, this, [this, ops, sorted] {
        if (pickedOperatorIndex_ < 0)
            return;
        const QModelIndex source = operatorModel_->index(pickedOperatorIndex_, OperatorTableModel::Name);
        const QModelIndex row = source.isValid() && source.data().toString() == pickedOperator_ ? sorted->mapFromSource(source)
                                                                                                 : QModelIndex();
        if (row.isValid()) {
            ops->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            ops->scrollTo(row);
            return;
        }
        pickOperatorInCharts({}, -1);
    });

    // Filter by any column's text: "softmax", "bw", "memory", "attn" ...
    sorted->setFilterKeyColumn(-1);
    sorted->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auto* opsFilter = new QLineEdit(this);
    opsFilter->setObjectName("operatorFilter");
    opsFilter->setPlaceholderText(tr("Filter operators (name, class, phase, bound…)"));
    opsFilter->setClearButtonEnabled(true);
    connect(opsFilter, &QLineEdit::textChanged, sorted, &QSortFilterProxyModel::setFilterFixedString);
    // Whose times these are: the table follows the GPU whose spec sheet is open, not all compared.
    auto* opsLabel = new QLabel(this);
    opsLabel->setObjectName("operatorTableGpu");
    auto nameShownGpu = [this, opsLabel] {
        const QString gpu = operatorModel_->shownGpu();
        opsLabel->setText(gpu.isEmpty() ? tr("Operators (tick a GPU to compare)") : tr("Operators on %1").arg(gpu));
    };
    connect(operatorModel_, &QAbstractItemModel::modelReset, opsLabel, nameShownGpu);
    nameShownGpu();
    auto* opsHeader = new QHBoxLayout;
    opsHeader->addWidget(opsLabel);
    opsHeader->addWidget(opsFilter, 1);
    auto* opsBox = new QWidget(this);
    auto* opsLayout = new QVBoxLayout(opsBox);
    opsLayout->setContentsMargins(0, 0, 0, 0);
    opsLayout->addLayout(opsHeader);
    opsLayout->addWidget(ops);

    auto* centre = new QSplitter(Qt::Vertical, this);
    centre->addWidget(charts_);
    centre->addWidget(opsBox);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 2);
    // Stretch factors share only what is left over the panes' size hints, and the table's hint is
    // tall: a 1024 x 640 window gave the charts 220 px and the table 330. Start at 3 : 2.
    centre->setSizes({3000, 2000});

    // On a short screen (1366 x 768) the model, GPU list, sheet and what-if panels need more height
    // than there is, and the what-if note was cut off; the column scrolls instead.
    auto* leftScroll = new QScrollArea(this);
    leftScroll->setObjectName("leftColumn");
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the column needs, as before it scrolled: the scroll area alone would let the
    // splitter squeeze it and cut its fields off on the right.
    keepColumnWideEnough(leftScroll, left);
    auto* main = new QSplitter(Qt::Horizontal, this);
    main->addWidget(leftScroll);
    main->addWidget(centre);
    main->setStretchFactor(1, 1);
    main->setSizes({380, 1200});
    setCentralWidget(main);
    buildMenus();

    connect(session_, &ForecastSession::forecastsChanged, this, &MainWindow::updateStatus);
    connect(session_, &ForecastSession::forecastsChanged, this, [this] {
        if (!loading_) {
            modified_ = true;
            updateTitle();
        }
    });
    connect(session_, &ForecastSession::errorOccurred, this,
            [this](const QString& msg) { statusBar()->showMessage(msg, 10000); });
    connect(session_, &ForecastSession::adjusted, this,
            [this](const QString& msg) { statusBar()->showMessage(msg, 10000); });
    // A message shown for a while hides the step times; when it times out they come back (the bar
    // had stayed empty until the next forecast).
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& message) {
        if (message.isEmpty() && !stepTimesSummary(*session_).isEmpty())
            updateStatus();
    });
    connect(specModel_, &SpecTableModel::sheetDisagrees, this, [this](const QString& msg) { statusBar()->showMessage(msg, 20000); });
    connect(specModel_, &SpecTableModel::editRejected, this, [this](const QString& msg) {
        statusBar()->showMessage(tr("Refused: %1").arg(msg), 10000);
        // At the cell too, where the eye is: the value had quietly gone back to the old one. The
        // cell keeps the reason as its tooltip until a valid edit.
        const QRect cell = specView_->visualRect(specView_->currentIndex());
        if (cell.isValid())
            QToolTip::showText(specView_->viewport()->mapToGlobal(cell.bottomLeft()), tr("Refused: %1").arg(msg), specView_);
    });
    // Sheets in the user's folder that could not be read, or whose basis is gone, change what is
    // forecast: say so where it stays visible, with every file in the tooltip.
    if (const QStringList problems = session_->loadProblems(); !problems.isEmpty()) {
        // The file by name, where only a count had been: "1 problem(s), see the tooltip" told a
        // keyboard user nothing (a GUI review). Each problem starts with its file's path.
        const qsizetype end = problems.front().indexOf(".json");
        const QString first = end < 0 ? QString() : QFileInfo(problems.front().left(end + 5)).fileName();
        const QString text = first.isEmpty() ? tr("Your GPU sheets: %n problem(s) (hover for details)", nullptr, int(problems.size()))
                             : problems.size() == 1
                                 ? tr("Your GPU sheets: a problem with %1 (hover for details)").arg(first)
                                 : tr("Your GPU sheets: problems with %1 and %n more (hover for details)", nullptr,
                                      int(problems.size() - 1)).arg(first);
        auto* note = new QLabel(text, this);
        note->setObjectName("loadProblems");
        note->setStyleSheet("color: #d55e00"); // the charts' vermillion: a warning
        note->setToolTip(problems.join('\n'));
        statusBar()->addPermanentWidget(note);
    }
    if (!session_->selectedGpus().isEmpty())
        showGpu(session_->selectedGpus().front());
    updateStatus();
    updateTitle();
}

QWidget* MainWindow::buildGpuPanel()
{
    auto* box = new QGroupBox(tr("GPUs (check to compare)"), this);
    auto* search = new QLineEdit(box);
    search->setPlaceholderText(tr("Search GPUs…"));
    search->setClearButtonEnabled(true);
    auto* filter = new QSortFilterProxyModel(this);
    filter->setSourceModel(gpuModel_);
    filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(search, &QLineEdit::textChanged, filter, &QSortFilterProxyModel::setFilterFixedString);
    gpuList_->setModel(filter);
    connect(gpuList_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showGpu(current.data(GpuListModel::IdRole).toString()); });

    specView_->setObjectName("specTable");
    specView_->setModel(specModel_);
    specView_->horizontalHeader()->setSectionResizeMode(SpecTableModel::FieldColumn, QHeaderView::Stretch);
    specView_->verticalHeader()->hide();
    // One line of text high, with the style's padding for an editor: a sixth more fields in view.
    specView_->verticalHeader()->setDefaultSectionSize(specView_->fontMetrics().height() + 8);
    auto* specLabel = new QLabel(box);
    specLabel->setObjectName("specSheetLabel");
    // A long id ("H100-SXM5-80GB (scenario)") wraps onto a second line, where it had pushed the
    // Name... button out of the column.
    specLabel->setWordWrap(true);
    // The architecture is said here because it changes forecasts (tile family, issue share) and
    // no cell of the table shows it.
    auto nameSheet = [this, specLabel] {
        const GpuSpec* g = session_->gpu(specModel_->gpuId());
        const QString words = g ? QString::fromStdString(g->vendor + " " + g->architecture).trimmed() : QString();
        specLabel->setText(words.isEmpty() ? tr("Spec sheet: %1").arg(specModel_->gpuId())
                                           : tr("Spec sheet: %1 (%2)").arg(specModel_->gpuId(), words));
        specLabel->setToolTip(g ? architectureEffect(session_->effectiveGpu(specModel_->gpuId()), session_->forecaster().tiles()) : QString());
    };
    connect(specModel_, &QAbstractItemModel::modelReset, specLabel, nameSheet);
    connect(session_, &ForecastSession::gpusChanged, specLabel, nameSheet);
    auto* identity = new QToolButton(box);
    identity->setObjectName("editIdentity");
    identity->setText(tr("Name…"));
    identity->setToolTip(tr("Rename the GPU and set its vendor and architecture (F2)"));
    connect(identity, &QToolButton::clicked, this, &MainWindow::editGpuIdentity);
    auto* rename = new QAction(tr("Rename…"), gpuList_);
    rename->setShortcut(Qt::Key_F2);
    rename->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(rename, &QAction::triggered, this, &MainWindow::editGpuIdentity);
    gpuList_->addAction(rename); // not the sheet's: F2 there edits the current cell
    gpuList_->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* specHeader = new QHBoxLayout;
    specHeader->addWidget(specLabel, 1);
    specHeader->addWidget(identity);
    // A renamed GPU stays on show: the sheet, charts and table follow it to its new id before the
    // catalog's change would have found the old one gone.
    connect(session_, &ForecastSession::gpuRenamed, this, [this](const QString& from, const QString& to) {
        if (specModel_->gpuId() == from)
            showGpu(to);
        if (operatorModel_->gpuId() == from && session_->selectedGpus().contains(to))
            operatorModel_->setGpu(to);
    });
    // Any change of the catalog resets the list; the GPU whose sheet is open stays its current row
    // (an edit of a cell had left no row highlighted).
    connect(session_, &ForecastSession::gpusChanged, this, [this] { markInGpuList(specModel_->gpuId()); });

    auto* buttons = new QHBoxLayout;
    auto addButton = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QPushButton(text, box);
        b->setToolTip(tip);
        // Narrower than a push button's usual 80 px when the column is: five of them held the
        // left column at 44% of a 1024-px window. Wider windows still share the row out evenly.
        b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        b->setMinimumWidth(b->fontMetrics().horizontalAdvance(text) +
                           2 * b->style()->pixelMetric(QStyle::PM_ButtonMargin, nullptr, b) + 4);
        connect(b, &QPushButton::clicked, this, slot);
        buttons->addWidget(b);
        return b;
    };
    addButton(tr("New"), tr("A new GPU read by its own numbers, starting from the selected one's spec sheet"),
              [this] { addUserGpu(tr("My GPU"), GpuStart::New); });
    addButton(tr("Duplicate"), tr("Copy the selected GPU to edit it; the copy keeps its learned efficiency"),
              [this] { addUserGpu(specModel_->gpuId() + " copy", GpuStart::Copy); });
    auto* remove = addButton(tr("Delete"), tr("Delete a GPU you added (or undo your edits of a bundled one)"),
                             [this] { deleteUserGpu(); });
    addButton(tr("Import…"), tr("Add a GPU from a spec sheet JSON file"), [this] { importGpu(); });
    addButton(tr("Export…"), tr("Save the selected GPU's spec sheet as JSON"), [this] { exportGpu(); });
    connect(specModel_, &QAbstractItemModel::modelReset, remove,
            [this, remove] { remove->setEnabled(session_->isUserGpu(specModel_->gpuId())); });
    connect(session_, &ForecastSession::gpusChanged, remove,
            [this, remove] { remove->setEnabled(session_->isUserGpu(specModel_->gpuId())); });

    auto* layout = new QVBoxLayout(box);
    layout->addWidget(search);
    layout->addWidget(gpuList_, 2);
    layout->addLayout(buttons);
    layout->addLayout(specHeader);
    layout->addWidget(specView_, 3);
    efficiencyBasis_ = new EfficiencyBasisBox(session_, undo_, box);
    layout->addWidget(efficiencyBasis_);
    whatIf_ = new WhatIfPanel(session_, box);
    layout->addWidget(whatIf_);
    keepPaneTallEnough(nullptr, whatIf_);
    // The column scrolls where the window is short, so the list and the sheet keep a few rows each
    // rather than two (at 1366 x 768 the sheet showed two of its twenty fields).
    const int row = specView_->verticalHeader()->defaultSectionSize();
    gpuList_->setMinimumHeight(5 * gpuList_->fontMetrics().height() + 8);
    gpuList_->setObjectName("gpuList");
    keepCurrentRowInView(gpuList_);
    specView_->setMinimumHeight(specView_->horizontalHeader()->sizeHint().height() + 5 * row + 4);
    return box;
}

void MainWindow::addUserGpu(const QString& baseId, GpuStart how, std::optional<GpuSpec> imported, const QString& path)
{
    const GpuSpec* current = session_->gpu(specModel_->gpuId());
    if (!imported && !current)
        return;
    GpuSpec spec = imported ? *imported : *current;
    spec.id = session_->uniqueGpuId(baseId).toStdString();
    if (how != GpuStart::Imported)
        spec.name = spec.id;
    // A copy exported with the bundled sheet's source still credited NVIDIA's datasheet for numbers
    // the user may have changed; it names what it was copied from instead.
    const QString from = specModel_->gpuId();
    if (how == GpuStart::Copy) {
        // A copy of a copy names the sheet it was copied from, and the original's source once.
        const QString marker = tr("'s source: ");
        QString original = QString::fromStdString(current->source);
        if (original.startsWith(tr("Copied from ")) && original.contains(marker))
            original = original.mid(original.indexOf(marker) + marker.size());
        spec.source = tr("Copied from %1 in GPU Forecast; fields may have been edited since. %1%2%3")
                          .arg(from, marker, original)
                          .toStdString();
    }
    else if (how == GpuStart::New)
        spec.source = tr("A new GPU, started in GPU Forecast from %1's sheet as a form").arg(from).toStdString();
    // A copy is "this GPU, with other numbers": it reads the learned efficiency of its source. A
    // new GPU only borrows the sheet as a form to fill in, so the networks read its own numbers.
    if (how == GpuStart::Copy)
        spec.efficiencyBasisId = session_->efficiencyBasisForCopyOf(specModel_->gpuId()).toStdString();
    else if (how == GpuStart::New) { // nor the form's own notes
        spec.efficiencyBasisId.clear();
        spec.unreadFields.clear();
        spec.unreadFieldsJson.clear();
    }
    if (auto error = session_->addGpu(spec, path)) {
        QMessageBox::warning(this, tr("GPU not added"), *error);
        return;
    }
    const QString id = QString::fromStdString(spec.id);
    session_->setGpuSelected(id, true);
    showGpu(id);
    statusBar()->showMessage(tr("Added %1; it is saved in %2").arg(id, session_->userFolder()), 10000);
    // A misspelt optional field leaves its default in force; say so while the file is at hand.
    if (const auto unread = imported ? unreadFieldsNote(*imported) : std::nullopt)
        QMessageBox::warning(this, tr("Fields not read"),
                             tr("%1: %2.\n\n%3 is added, and its file keeps them as they are, but no forecast reads "
                                "them. If one is a misspelt field, set that field in its sheet here.")
                                 .arg(path, QString::fromStdString(*unread), id));
}

void MainWindow::editGpuIdentity()
{
    const QString id = specModel_->gpuId();
    if (!session_->gpu(id))
        return;
    GpuIdentityDialog dialog(session_, id, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (auto error = applyGpuIdentity(session_, undo_, id, dialog.identity()))
        QMessageBox::warning(this, tr("GPU not renamed"), *error);
}

void MainWindow::deleteUserGpu()
{
    const QString id = specModel_->gpuId();
    if (!session_->isUserGpu(id))
        return;
    if (QMessageBox::question(this, tr("Delete GPU"), tr("Delete your spec sheet for %1?").arg(id)) != QMessageBox::Yes)
        return;
    undo_->clear(); // its edits can no longer be undone
    session_->removeGpu(id);
}

void MainWindow::importGpu()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import a GPU spec sheet"), {}, tr("Spec sheets (*.json)"));
    if (path.isEmpty())
        return;
    try {
        const GpuSpec spec = loadGpuSpec(path.toStdString());
        addUserGpu(QString::fromStdString(spec.id), GpuStart::Imported, spec, path);
    } catch (const ForecastError& e) {
        QMessageBox::warning(this, tr("Import failed"), QString::fromUtf8(e.what()));
        statusBar()->showMessage(QString::fromUtf8(e.what()), 10000);
    }
}

void MainWindow::exportGpu()
{
    const GpuSpec* spec = session_->gpu(specModel_->gpuId());
    if (!spec)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export spec sheet"), specModel_->gpuId() + ".json",
                                                      tr("Spec sheets (*.json)"));
    if (path.isEmpty())
        return;
    try {
        saveGpuSpec(*spec, path.toStdString());
    } catch (const ForecastError& e) {
        QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
    }
}

bool MainWindow::openScenarioAskingFirst(const QString& path)
{
    return maybeSave() && openScenario(path);
}

bool MainWindow::openScenario(const QString& path, QString* errorText, QString* noteText)
{
    loading_ = true;
    std::optional<QString> error;
    QStringList notes;
    try {
        const Scenario scenario = loadScenario(path.toStdString());
        if (const auto unread = scenarioUnreadNote(scenario))
            notes << QString::fromStdString(*unread);
        error = session_->applyScenario(scenario, &notes);
    } catch (const ForecastError& e) {
        error = QString::fromUtf8(e.what());
    }
    loading_ = false;
    if (error) {
        if (errorText)
            *errorText = *error;
        statusBar()->showMessage(tr("Not opened: %1").arg(*error), 15000);
        if (isVisible())
            QMessageBox::warning(this, tr("Cannot open scenario"), *error);
        return false;
    }
    undo_->clear();
    scenarioPath_ = path;
    modified_ = false;
    if (autosave_)
        autosave_->markClean(path);
    rememberRecent(path);
    if (!session_->selectedGpus().isEmpty())
        showGpu(session_->selectedGpus().front());
    updateTitle();
    // A misspelt "parallel" opened as one GPU without a word, a repeated GPU as one bar, a sheet
    // under a taken id as a GPU the user had not heard of; the file is left as it is.
    if (!notes.isEmpty()) {
        const QString note = QString("%1: %2").arg(path, notes.join("; "));
        if (noteText)
            *noteText = note;
        statusBar()->showMessage(note, 20000);
        if (isVisible())
            QMessageBox::warning(this, tr("Opened, with notes"), note + "."); // unread keys, repeated GPUs
    }
    return true;
}

bool MainWindow::saveScenario(const QString& path)
{
    try {
        gpuforecast::saveScenario(session_->toScenario(), path.toStdString());
    } catch (const ForecastError& e) {
        statusBar()->showMessage(tr("Not saved: %1").arg(QString::fromUtf8(e.what())), 15000);
        if (isVisible())
            QMessageBox::warning(this, tr("Cannot save scenario"), QString::fromUtf8(e.what()));
        return false;
    }
    scenarioPath_ = path;
    modified_ = false;
    if (autosave_)
        autosave_->markClean(path);
    undo_->setClean();
    rememberRecent(path);
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::maybeSave()
{
    if (!modified_)
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
                                              tr("The scenario has unsaved changes. Save them first?"),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save) {
        const QString path = scenarioPath_.isEmpty()
                                 ? QFileDialog::getSaveFileName(this, tr("Save scenario"), "scenario.json", tr("Scenarios (*.json)"))
                                 : scenarioPath_;
        return !path.isEmpty() && saveScenario(path);
    }
    return true;
}

void MainWindow::rememberRecent(const QString& path)
{
    if (!remembersScenarios_)
        return;
    QSettings settings(settingsName(), settingsName());
    // Absolute: a scenario opened as "b.json" from a terminal must reopen from the menu anywhere.
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList recent = settings.value("recentScenarios").toStringList();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    settings.setValue("recentScenarios", recent.mid(0, 8));
    settings.setValue("lastScenario", absolute);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!recentMenu_)
        return;
    recentMenu_->clear();
    for (const QString& path : QSettings(settingsName(), settingsName()).value("recentScenarios").toStringList())
        recentMenu_->addAction(path, this, [this, path] {
            if (maybeSave())
                openScenario(path);
        });
    recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

QSize MainWindow::initialSize(const QSize& availableOnScreen)
{
    const QSize wanted(1600, 1000);
    if (availableOnScreen.isEmpty())
        return wanted;
    return wanted.boundedTo(availableOnScreen * 0.9);
}

void MainWindow::restoreSettings()
{
    QSettings settings(settingsName(), settingsName());
    if (const QScreen* screen = this->screen()) {
        const QRect free = screen->availableGeometry();
        resize(initialSize(free.size()));
        move(free.center() - rect().center());
    }
    restoreGeometry(settings.value("geometry").toByteArray()); // Qt keeps a restored window on its screen
    restoreState(settings.value("windowState").toByteArray());
    if (const auto when = autosave_ ? autosave_->pendingRecovery() : std::nullopt) {
        QMessageBox ask(QMessageBox::Question, tr("Unsaved work"),
                        tr("GPU Forecast did not close cleanly. Restore the unsaved work from %1?")
                            .arg(QLocale().toString(*when, QLocale::ShortFormat)),
                        QMessageBox::Discard, this);
        QPushButton* restore = ask.addButton(tr("Restore"), QMessageBox::AcceptRole);
        ask.setDefaultButton(restore);
        ask.exec();
        if (ask.clickedButton() == restore) {
            QString error;
            if (restoreRecovery(&error))
                return; // the recovered work replaces the last scenario
            QMessageBox::warning(this, tr("Unsaved work not restored"), error);
        } else {
            autosave_->markClean();
        }
    }
    const QString last = settings.value("lastScenario").toString();
    if (!last.isEmpty() && QFileInfo::exists(last))
        openScenario(last);
}

void MainWindow::setAutosave(Autosave* autosave)
{
    autosave_ = autosave;
    if (autosave_)
        connect(autosave_, &Autosave::problem, this, [this](const QString& msg) { statusBar()->showMessage(msg, 15000); });
}

bool MainWindow::restoreRecovery(QString* error)
{
    if (!autosave_)
        return false;
    QString path;
    if (const auto refused = autosave_->restore(&path)) {
        const QString msg = tr("Unsaved work not restored (the file is kept as .bad): %1").arg(*refused);
        statusBar()->showMessage(msg, 30000);
        if (error)
            *error = msg;
        return false;
    }
    undo_->clear();
    scenarioPath_ = path;
    modified_ = true; // still unsaved, as it was when the last run ended
    if (!session_->selectedGpus().isEmpty())
        showGpu(session_->selectedGpus().front());
    updateTitle();
    return true;
}

void MainWindow::updateTitle()
{
    const QString name = scenarioPath_.isEmpty() ? tr("Untitled") : QFileInfo(scenarioPath_).fileName();
    setWindowTitle(QString("%1%2 — GPU Forecast").arg(name, modified_ ? "*" : ""));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    if (autosave_)
        autosave_->markClean(scenarioPath_); // saved, discarded or unchanged: nothing to recover
    QSettings settings(settingsName(), settingsName());
    settings.setValue("geometry", saveGeometry());
    settings.setValue("windowState", saveState());
    event->accept();
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open scenario…"), QKeySequence::Open, this, [this] {
        if (!maybeSave())
            return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), {}, tr("Scenarios (*.json)"));
        if (!path.isEmpty())
            openScenario(path);
    });
    recentMenu_ = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Save scenario"), QKeySequence::Save, this, [this] {
        if (scenarioPath_.isEmpty()) {
            const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), "scenario.json", tr("Scenarios (*.json)"));
            if (!path.isEmpty())
                saveScenario(path);
        } else {
            saveScenario(scenarioPath_);
        }
    });
    file->addAction(tr("Save scenario &as…"), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), "scenario.json", tr("Scenarios (*.json)"));
        if (!path.isEmpty())
            saveScenario(path);
    });
    file->addSeparator();
    file->addAction(tr("Export chart…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), "chart.png",
                                                          tr("PNG image (*.png);;PDF document (*.pdf)"));
        if (!path.isEmpty())
            exportChart(path); // says what went wrong itself
    });
    // The figures behind the charts, for a spreadsheet: default names say what and for which model.
    file->addAction(tr("Export comparison as CSV…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"),
                                                          session_->modelName() + "_comparison.csv",
                                                          tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportComparisonCsv(path);
    });
    file->addAction(tr("Export operator table as CSV…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export operator table"),
            QString("%1_%2_operators.csv").arg(session_->modelName(), operatorModel_->shownGpu()), tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportOperatorCsv(path);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = undo_->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = undo_->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
}

void MainWindow::pickOperatorInCharts(const QString& name, int opIndex)
{
    pickedOperator_ = name;
    pickedOperatorIndex_ = opIndex;
    for (int i = 0; i < charts_->count(); ++i)
        if (auto* chart = qobject_cast<ChartWidget*>(charts_->widget(i)))
            chart->setSelectedOperator(name, opIndex);
}

void MainWindow::markInGpuList(const QString& id)
{
    const QAbstractItemModel* shown = gpuList_->model();
    for (int row = 0; row < shown->rowCount(); ++row)
        if (const QModelIndex i = shown->index(row, 0); i.data(GpuListModel::IdRole).toString() == id) {
            if (gpuList_->currentIndex() == i)
                return;
            const QSignalBlocker quiet(gpuList_->selectionModel()); // the sheet is open already
            gpuList_->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect);
            gpuList_->scrollTo(i);
            gpuList_->viewport()->update();
            return;
        }
}

void MainWindow::showGpu(const QString& id)
{
    if (id.isEmpty())
        return;
    markInGpuList(id); // a GPU just added (New, Duplicate, Import) is the list's current row too
    specModel_->setGpu(id);
    sensitivity_->setGpu(id);
    efficiencyBasis_->setGpu(id);
    whatIf_->setGpu(id);
    if (session_->selectedGpus().contains(id)) {
        operatorModel_->setGpu(id);
        roofline_->setGpu(id);
    }
}

bool MainWindow::exportChart(const QString& path)
{
    auto* plot = charts_->currentWidget()->findChild<QCustomPlot*>();
    if (!plot)
        return reportExportFailure(path, tr("this tab has no chart to export"));
    // Drawn for a file, then as it was for the window, whatever the way out of here.
    struct RenderedForExport {
        ChartWidget* chart;
        explicit RenderedForExport(ChartWidget* c) : chart(c)
        {
            if (chart)
                chart->setRenderingForExport(true);
        }
        ~RenderedForExport()
        {
            if (chart) {
                chart->setRenderingForExport(false);
                chart->plot()->replot(QCustomPlot::rpQueuedReplot);
            }
        }
        RenderedForExport(const RenderedForExport&) = delete;
        RenderedForExport& operator=(const RenderedForExport&) = delete;
    } const rendered(qobject_cast<ChartWidget*>(charts_->currentWidget()));
    // Drawn in memory, then written as the CSV exports are, atomically: a failed export never
    // leaves half an image over an earlier one. QCustomPlot writes a PDF only to a file name,
    // so that goes through a scratch folder.
    QByteArray bytes;
    if (path.endsWith(".pdf", Qt::CaseInsensitive)) {
        const QTemporaryDir scratch;
        const QString drawn = scratch.filePath("chart.pdf");
        QFile file(drawn);
        if (!scratch.isValid() || !plot->savePdf(drawn, kExportWidth, kExportHeight) || !file.open(QIODevice::ReadOnly))
            return reportExportFailure(path, tr("could not draw the chart as PDF"));
        bytes = file.readAll();
    } else {
        QImage image = plot->toPixmap(kExportWidth, kExportHeight).toImage();
        image.setDotsPerMeterX(kExportDotsPerMeter);
        image.setDotsPerMeterY(kExportDotsPerMeter);
        QBuffer buffer(&bytes);
        if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG"))
            return reportExportFailure(path, tr("could not draw the chart as PNG"));
    }
    return writeExport(path, bytes.toStdString());
}

bool MainWindow::exportComparisonCsv(const QString& path)
{
    return writeExport(path, comparisonCsv(*session_, compare_->baseline()));
}

bool MainWindow::exportOperatorCsv(const QString& path)
{
    return writeExport(path, operatorTableCsv(*operatorView_, operatorModel_->shownGpu()));
}

bool MainWindow::writeExport(const QString& path, const std::string& bytes)
{
    try {
        writeFileAtomically(path.toStdString(), bytes);
    } catch (const std::exception& e) {
        return reportExportFailure(path, QString::fromUtf8(e.what()));
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::reportExportFailure(const QString& path, const QString& why)
{
    const QString text = why.contains(path) ? why : tr("%1: %2").arg(path, why);
    statusBar()->showMessage(tr("Not exported: %1").arg(text), 15000);
    if (isVisible())
        QMessageBox::warning(this, tr("Export failed"), text);
    return false;
}

void MainWindow::updateStatus()
{
    statusBar()->showMessage(stepTimesSummary(*session_));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() && url.toLocalFile().endsWith(".json")) {
            modelPanel_->openConfig(url.toLocalFile());
            break;
        }
}

bool MainWindow::showChart(const QString& title)
{
    for (int i = 0; i < charts_->count(); ++i)
        if (charts_->tabText(i).compare(title, Qt::CaseInsensitive) == 0) {
            charts_->setCurrentIndex(i);
            return true;
        }
    return false;
}

QStringList MainWindow::chartTitles() const
{
    QStringList titles;
    for (int i = 0; i < charts_->count(); ++i)
        titles << charts_->tabText(i);
    return titles;
}

} // namespace gpuforecast::ui
