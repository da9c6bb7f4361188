#include "ui/ConsoleView.h"

#include "edit/RenamePlan.h"
#include "keyspace/KeyEscape.h"
#include "models/DisplayText.h"
#include "redis/WriteGate.h"

#include <QCompleter>
#include <QFontDatabase>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStringListModel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace keylens::ui {

namespace {

constexpr int MostHistory = 500;
constexpr int MostElementsShown = 10'000; // an array past this says how many more there are

QString bytesText(const QByteArray& bytes)
{
    return QLatin1Char('"') + models::displayText(keyspace::escapeLikeRedisCli(bytes)) + QLatin1Char('"');
}

QString nodeText(const models::ReplyNode& node)
{
    using Kind = models::ReplyNode::Kind;
    switch (node.kind) {
    case Kind::String:
        return bytesText(node.bytes);
    case Kind::Status:
        return models::displayText(node.bytes);
    case Kind::Error:
        return ConsoleView::tr("(error) ") + models::displayText(node.bytes);
    case Kind::Integer:
        return ConsoleView::tr("(integer) %1").arg(node.integer);
    case Kind::Nil:
        return QStringLiteral("(nil)");
    case Kind::Array:
        return node.children.empty() ? ConsoleView::tr("(empty array)")
                                     : ConsoleView::tr("(%L1 elements)").arg(node.children.size());
    }
    return {};
}

// A text of several lines (INFO, CLIENT LIST, CLUSTER NODES, LATENCY DOCTOR): its lines, when each is printable.
// Escaped on one line ("# Server\r\nredis_version…") and cut at the pane's edge, such a reply could not be read.
std::optional<QList<QByteArray>> linesOf(const models::ReplyNode& node)
{
    if (node.kind != models::ReplyNode::Kind::String || !node.bytes.contains('\n'))
        return std::nullopt;
    QList<QByteArray> lines = node.bytes.split('\n');
    if (lines.back().isEmpty() || lines.back() == "\r")
        lines.removeLast(); // the text's last line end
    for (QByteArray& line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (!line.isEmpty() && !keyspace::isPrintableUtf8(line))
            return std::nullopt;
    }
    return lines;
}

// Adds the reply under `parent`, its arrays as branches, walking with a stack (replies are data from the server).
void addReply(QTreeWidgetItem* parent, const models::ReplyNode& reply, const QColor& errorColour)
{
    struct Step
    {
        QTreeWidgetItem* parent;
        const models::ReplyNode* node;
        QString label;
    };
    std::vector<Step> stack{{parent, &reply, QString()}};
    while (!stack.empty()) {
        const Step step = stack.back();
        stack.pop_back();
        if (const std::optional<QList<QByteArray>> lines = linesOf(*step.node)) {
            auto* item = new QTreeWidgetItem(step.parent,
                                             {step.label + ConsoleView::tr("(%L1 lines of text)").arg(lines->size())});
            for (const QByteArray& line : *lines)
                new QTreeWidgetItem(item, {models::displayText(line)});
            item->setExpanded(true);
            continue;
        }
        auto* item = new QTreeWidgetItem(step.parent, {step.label + nodeText(*step.node)});
        if (step.node->kind == models::ReplyNode::Kind::Error)
            item->setForeground(0, errorColour);
        const auto& children = step.node->children;
        const std::size_t shown = std::min<std::size_t>(children.size(), MostElementsShown);
        if (children.size() > shown)
            new QTreeWidgetItem(item, {ConsoleView::tr("… %L1 more not shown").arg(children.size() - shown)});
        for (std::size_t i = shown; i-- > 0;) // pushed backwards: popped in order
            stack.push_back({item, &children[i], QStringLiteral("%1) ").arg(i + 1)});
        item->setExpanded(step.node->kind == models::ReplyNode::Kind::Array && children.size() <= 100);
    }
}

} // namespace

ConsoleView::ConsoleView(QWidget* parent)
    : QWidget(parent)
    , m_session(new models::ConsoleSession(this))
{
    m_output = new QTreeWidget;
    m_output->setHeaderHidden(true);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setUniformRowHeights(true);
    // Lines are shown whole, the pane scrolling sideways: a reply cut at its edge hid what CLIENT LIST says last.
    m_output->setTextElideMode(Qt::ElideNone);
    m_output->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_output->header()->setStretchLastSection(false);
    m_where = new QLabel;
    m_input = new QLineEdit;
    m_input->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_input->setPlaceholderText(tr("A command, as redis-cli takes it: GET \"user:1\""));
    m_input->installEventFilter(this);
    m_names = new QStringListModel(this);
    m_completer = new QCompleter(m_names, this);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setModelSorting(QCompleter::CaseInsensitivelySortedModel);
    m_input->setCompleter(m_completer);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_output, 1);
    layout->addWidget(m_where);
    layout->addWidget(m_input);
    connect(m_input, &QLineEdit::returnPressed, this, [this] {
        if (runLine(m_input->text()))
            m_input->clear();
    });
    connect(m_session, &models::ConsoleSession::replied, this, &ConsoleView::show);
    connect(m_session, &models::ConsoleSession::commandNamesReady, m_names, &QStringListModel::setStringList);
}

QStringList ConsoleView::commandNames() const
{
    return m_names->stringList();
}

void ConsoleView::setConnection(const redis::ConnectionOptions& options, bool production, const QString& name)
{
    m_session->setConnection(options);
    m_session->requestCommandNames();
    // The last server's replies stay, below a line that says where the next ones come from.
    if (m_output->topLevelItemCount() > 0 && (name != m_name || options.db != m_db)) {
        // Where the next commands go, not that they got there: the server may not answer (serverUnreachable()).
        auto* separator = new QTreeWidgetItem(
            m_output, {tr("──── commands from here on go to %1 · db %2 ────").arg(name).arg(options.db)});
        QFont bold = separator->font(0);
        bold.setBold(true);
        separator->setFont(0, bold);
        m_output->scrollToItem(separator);
    }
    m_production = production;
    m_name = name;
    m_db = options.db;
    m_where->setText(tr("%1 · db %2%3%4")
                         .arg(name)
                         .arg(options.db)
                         .arg(options.readOnly ? tr(" · read-only: writes are refused") : QString(),
                              production ? tr(" · production") : QString()));
}

void ConsoleView::serverUnreachable(const QString& why)
{
    auto* item = new QTreeWidgetItem(m_output, {tr("Not connected: %1").arg(why)});
    item->setForeground(0, QColor(210, 50, 50)); // as an error reply
    m_output->scrollToItem(item);
}

bool ConsoleView::runLine(const QString& line)
{
    const std::optional<std::vector<QByteArray>> command = edit::splitRedisCliLine(line.toUtf8());
    if (!command) {
        auto* item = new QTreeWidgetItem(m_output, {tr("Unbalanced quotes: nothing was sent.")});
        m_output->scrollToItem(item);
        return false;
    }
    if (command->empty())
        return false;
    std::vector<QByteArrayView> views(command->begin(), command->end());
    if (m_production && redis::isDangerousCommand(views)) {
        QMessageBox ask(
            QMessageBox::Warning, tr("Dangerous command"),
            tr("%1 is tagged production. Run %2 there?").arg(m_name, models::displayText(line.toUtf8().left(200))),
            QMessageBox::Cancel, this);
        QPushButton* run = ask.addButton(tr("Run it"), QMessageBox::DestructiveRole);
        ask.setDefaultButton(QMessageBox::Cancel);
        ask.exec();
        if (ask.clickedButton() != run)
            return false;
    }
    if (m_history.isEmpty() || m_history.last() != line)
        m_history << line;
    while (m_history.size() > MostHistory)
        m_history.removeFirst();
    m_historyAt = int(m_history.size());
    m_session->run(*command);
    return true;
}

void ConsoleView::show(const models::ConsoleSession::Result& result)
{
    QStringList words;
    for (const QByteArray& argument : result.command)
        words << (keyspace::isPrintableUtf8(argument) && !argument.contains(' ') && !argument.isEmpty()
                      ? models::displayText(argument)
                      : bytesText(argument));
    auto* top = new QTreeWidgetItem(m_output, {QStringLiteral("› ") + words.join(u' ') +
                                               tr("   (%1 ms)").arg(double(result.elapsedUs) / 1000.0, 0, 'f', 2)});
    QFont bold = top->font(0);
    bold.setBold(true);
    top->setFont(0, bold);
    const QColor errorColour(210, 50, 50); // readable on light and dark palettes alike
    for (const QString& redirect : result.redirects) {
        auto* item = new QTreeWidgetItem(top, {QStringLiteral("↪ ") + redirect});
        item->setForeground(0, palette().color(QPalette::PlaceholderText));
    }
    if (!result.error.isEmpty()) {
        auto* item = new QTreeWidgetItem(top, {tr("(refused) ") + result.error});
        item->setForeground(0, errorColour);
    } else {
        addReply(top, result.reply, errorColour);
    }
    if (result.wroteWithoutKeys)
        new QTreeWidgetItem(top, {tr("(the tree shows the scan's keys until a rescan, F5)")});
    top->setExpanded(true);
    if (!result.keysAfter.empty())
        Q_EMIT keysWritten(result.keysAfter);
    m_output->scrollToItem(top->childCount() ? top->child(0) : top);
    Q_EMIT replied();
}

void ConsoleView::browseHistory(int step)
{
    if (m_history.isEmpty())
        return;
    m_historyAt = std::clamp(m_historyAt + step, 0, int(m_history.size()));
    m_input->setText(m_historyAt < m_history.size() ? m_history[m_historyAt] : QString());
}

bool ConsoleView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress && !m_completer->popup()->isVisible()) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Up || key->key() == Qt::Key_Down) {
            browseHistory(key->key() == Qt::Key_Up ? -1 : 1);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace keylens::ui
