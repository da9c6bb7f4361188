#include "ui/HelpWindows.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace keylens::ui {

namespace {

void collectShortcuts(const QMenu& menu, QList<std::pair<QString, QString>>& out)
{
    for (const QAction* action : menu.actions()) {
        if (action->menu()) {
            collectShortcuts(*action->menu(), out);
            continue;
        }
        const QList<QKeySequence> keys = action->shortcuts();
        if (keys.isEmpty())
            continue;
        QStringList texts;
        for (const QKeySequence& key : keys)
            texts << key.toString(QKeySequence::NativeText);
        QString what = action->text().remove(u'&');
        if (what.endsWith(u'…'))
            what.chop(1);
        out.append({texts.join(ShortcutsDialog::tr(" or ")), what});
    }
}

// Draws an outline around the part of the window the tour talks about; clicks go through it.
class Outline : public QWidget
{
public:
    using QWidget::QWidget;

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        QPen pen(palette().color(QPalette::Highlight), 3);
        painter.setPen(pen);
        painter.drawRoundedRect(QRectF(rect()).adjusted(1.5, 1.5, -1.5, -1.5), 6, 6);
    }
};

} // namespace

QList<std::pair<QString, QString>> windowShortcuts(const QMainWindow& window)
{
    QList<std::pair<QString, QString>> shortcuts;
    for (const QAction* action : window.menuBar()->actions()) {
        if (action->menu())
            collectShortcuts(*action->menu(), shortcuts);
    }
    // Keys of the views themselves, not of an action.
    shortcuts.append(
        {ShortcutsDialog::tr("Return"), ShortcutsDialog::tr("In the filter: go to the key typed, or filter")});
    shortcuts.append({ShortcutsDialog::tr("Escape"), ShortcutsDialog::tr("In the filter: clear it")});
    shortcuts.append({QStringLiteral("← →"), ShortcutsDialog::tr("In the tree: fold or open a namespace")});
    shortcuts.append(
        {ShortcutsDialog::tr("Ctrl+End"), ShortcutsDialog::tr("In a value table: the last element, read to the end")});
    return shortcuts;
}

ShortcutsDialog::ShortcutsDialog(const QList<std::pair<QString, QString>>& shortcuts, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Keyboard shortcuts"));
    auto* table = new QTableWidget(int(shortcuts.size()), 2);
    table->setObjectName(QStringLiteral("shortcuts"));
    table->setHorizontalHeaderLabels({tr("Keys"), tr("Does")});
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    for (int row = 0; row < shortcuts.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(shortcuts[row].first));
        table->setItem(row, 1, new QTableWidgetItem(shortcuts[row].second));
    }
    table->resizeColumnToContents(0);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(520, 460);
}

ReadmeDialog::ReadmeDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Keylens README"));
    QFile file(QStringLiteral(":/README.md"));
    m_text = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : tr("This build has no README in it.");
    auto* browser = new QTextBrowser;
    browser->setOpenExternalLinks(true);
    browser->setMarkdown(m_text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    resize(760, 640);
}

QString ReadmeDialog::text() const
{
    return m_text;
}

WindowTour::WindowTour(QMainWindow* window, std::vector<Step> steps)
    : QObject(window)
    , m_window(window)
    , m_steps(std::move(steps))
    , m_outline(new Outline(window))
    , m_card(new QFrame(window))
{
    m_outline->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_outline->setObjectName(QStringLiteral("tourOutline"));
    auto* card = static_cast<QFrame*>(m_card);
    card->setObjectName(QStringLiteral("tourCard"));
    card->setFrameShape(QFrame::StyledPanel);
    card->setAutoFillBackground(true);
    m_title = new QLabel;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_text = new QLabel;
    m_text->setWordWrap(true);
    m_back = new QPushButton(tr("Back"));
    m_next = new QPushButton(tr("Next"));
    auto* close = new QPushButton(tr("Close"));
    connect(m_back, &QPushButton::clicked, this, [this] { show(m_current - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] {
        if (m_current + 1 < m_steps.size())
            show(m_current + 1);
        else
            deleteLater();
    });
    connect(close, &QPushButton::clicked, this, &QObject::deleteLater);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(close);
    buttons->addStretch(1);
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    auto* layout = new QVBoxLayout(card);
    layout->addWidget(m_title);
    layout->addWidget(m_text);
    layout->addLayout(buttons);
    card->setFixedWidth(340);
}

WindowTour::~WindowTour()
{
    delete m_outline;
    delete m_card;
    Q_EMIT finished();
}

QWidget* WindowTour::highlighted() const
{
    return m_current < m_steps.size() ? m_steps[m_current].part.data() : nullptr;
}

QString WindowTour::currentTitle() const
{
    return m_current < m_steps.size() ? m_steps[m_current].title : QString();
}

void WindowTour::show(std::size_t step)
{
    if (step >= m_steps.size())
        return;
    m_current = step;
    const Step& current = m_steps[step];
    m_title->setText(tr("%1 (%2 of %3)").arg(current.title).arg(step + 1).arg(m_steps.size()));
    m_text->setText(current.text);
    m_back->setEnabled(step > 0);
    m_next->setText(step + 1 < m_steps.size() ? tr("Next") : tr("Done"));
    QRect area = m_window->rect();
    if (current.part && current.part->isVisible())
        area = QRect(current.part->mapTo(m_window, QPoint(0, 0)), current.part->size());
    m_outline->setGeometry(area.adjusted(-2, -2, 2, 2) & m_window->rect());
    m_outline->show();
    m_outline->raise();
    // The card sits inside the outlined part when it is big, else under it (above it when there is no room below);
    // always inside the window.
    m_card->adjustSize();
    QPoint at = area.center() - QPoint(m_card->width() / 2, m_card->height() / 2);
    if (area.width() < m_card->width() + 40 || area.height() < m_card->height() + 40) {
        const bool roomBelow = area.bottom() + 12 + m_card->height() <= m_window->height();
        at = QPoint(area.center().x() - m_card->width() / 2,
                    roomBelow ? area.bottom() + 12 : area.top() - 12 - m_card->height());
    }
    at.setX(std::clamp(at.x(), 8, std::max(8, m_window->width() - m_card->width() - 8)));
    at.setY(std::clamp(at.y(), 8, std::max(8, m_window->height() - m_card->height() - 8)));
    m_card->move(at);
    m_card->show();
    m_card->raise();
    m_next->setFocus();
}

std::vector<WindowTour::Step> windowTourSteps(const WindowParts& parts)
{
    return {
        {parts.connectionBar, WindowTour::tr("The connection"),
         WindowTour::tr("Which server this is, and the scan's controls: pause, resume, cancel and rescan (F5). Keys "
                        "shows every key split on ':'; Patterns folds ids, so user:<int>:profile is one row.")},
        {parts.filter, WindowTour::tr("The filter"),
         WindowTour::tr("Type a prefix, a glob (user:*:cart) or a whole key to go to it (Ctrl+L). The tree then "
                        "counts only what matches: '11 of 200 keys'.")},
        {parts.tree, WindowTour::tr("The tree"),
         WindowTour::tr("Every namespace with its keys, memory, TTLs, findings and types, totalled over all below "
                        "it. The bar's length is the share of the parent, its colour the share of the whole "
                        "keyspace: red is where the memory goes.")},
        {parts.side, WindowTour::tr("Details, charts, treemap, server"),
         WindowTour::tr("The selected key's value (paged, searchable), or a namespace's totals and biggest keys; "
                        "charts of where memory and TTLs go; a treemap where area is memory; the server at a "
                        "glance from INFO.")},
        {parts.findings, WindowTour::tr("Findings"),
         WindowTour::tr("The keys that break the naming convention, rule by rule, with why it matters and how to "
                        "fix it (Ctrl+Shift+F). Double-click a key to find it in the tree.")},
        {parts.statusBar, WindowTour::tr("The status bar"),
         WindowTour::tr("How far the scan is, how fast, and how many keys have expired since it ended.")},
    };
}

} // namespace keylens::ui
