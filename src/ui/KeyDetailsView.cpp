#include "ui/KeyDetailsView.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/KeyFilter.h"
#include "keyspace/Units.h"
#include "lint/OverlayRules.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"
#include "models/KeyTreeModel.h"
#include "models/ValueTableModel.h"
#include "scan/ScanTypes.h"
#include "ui/DetailsForm.h"
#include "ui/EditDialogs.h"

#include <QComboBox>
#include <QDateTime>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <tuple>
#include <utility>

namespace keylens::ui {

using models::displayText;

using keyspace::KeyType;

namespace {

enum ValuePage { TextPage, TablePage, MessagePage };

} // namespace

KeyDetailsView::KeyDetailsView(models::ValueInspector* inspector, QWidget* parent)
    : QWidget(parent)
    , m_inspector(inspector)
    , m_tableModel(new models::ValueTableModel(inspector, this))
{
    m_title = createDetailsTitle();

    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    std::tie(m_type, m_encoding) = addDetailsFieldPair(m_form, tr("Type"), tr("Type"), tr("Encoding"));
    m_ttl = addDetailsField(m_form, QStringLiteral("TTL"));
    m_ttlTick.setInterval(1000);
    connect(&m_ttlTick, &QTimer::timeout, this, &KeyDetailsView::showTimeLeft);
    std::tie(m_memory, m_length) = addDetailsFieldPair(m_form, tr("Size"), tr("Memory"), tr("Length"));
    m_findings = addDetailsField(m_form, tr("Findings"));
    m_problems = new QLabel;
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setVisible(false);

    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);

    // Strings: a mode switch, a line about the payload, the text.
    m_mode = new QComboBox;
    m_mode->addItems({tr("Auto"), tr("Text"), QStringLiteral("JSON"), tr("Hex")});
    m_mode->setToolTip(tr("How to show the value; Auto picks JSON, text or hex from its bytes"));
    m_valueInfo = new QLabel;
    m_valueInfo->setWordWrap(true);
    m_text = new QPlainTextEdit;
    m_text->setReadOnly(true);
    m_text->setFont(fixed);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* textPage = new QWidget;
    auto* modeRow = new QHBoxLayout;
    modeRow->addWidget(new QLabel(tr("Show as")));
    modeRow->addWidget(m_mode);
    modeRow->addWidget(m_valueInfo, 1);
    auto* textLayout = new QVBoxLayout(textPage);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->addLayout(modeRow);
    textLayout->addWidget(m_text, 1);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &KeyDetailsView::showString);

    // Collections: a paged table.
    m_table = new QTableView;
    m_table->setModel(m_tableModel);
    m_table->setFont(fixed);
    m_table->setAlternatingRowColors(true);
    // Stream ids and long fields differ at their end: elided in the middle, they stay told apart.
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->installEventFilter(this); // Ctrl+End
    m_tableStatus = new QLabel;
    m_tableStatus->setObjectName(QStringLiteral("tableStatus"));
    m_tableStatus->setWordWrap(true);

    // Above the table: a search on the server, and a sorted set's order.
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("elementSearch"));
    m_search->setClearButtonEnabled(true);
    m_searchDelay.setSingleShot(true);
    m_searchDelay.setInterval(300);
    connect(m_search, &QLineEdit::textEdited, &m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, &KeyDetailsView::applyQuery);
    connect(&m_searchDelay, &QTimer::timeout, this, &KeyDetailsView::applyQuery);
    m_order = new QComboBox;
    m_order->setObjectName(QStringLiteral("scoreOrder"));
    m_order->addItems({tr("Lowest score first"), tr("Highest score first")});
    connect(m_order, &QComboBox::currentIndexChanged, this, &KeyDetailsView::applyQuery);
    auto* queryRow = new QHBoxLayout;
    queryRow->addWidget(m_search, 1);
    queryRow->addWidget(m_order);

    auto* tablePage = new QWidget;
    auto* tableLayout = new QVBoxLayout(tablePage);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addLayout(queryRow);
    tableLayout->addWidget(m_tableStatus);
    tableLayout->addWidget(m_table, 1);
    connect(m_tableModel, &models::ValueTableModel::pageLoaded, this, &KeyDetailsView::updateTableStatus);
    connect(m_tableModel, &models::ValueTableModel::failed, this, &KeyDetailsView::updateTableStatus);
    connect(m_tableModel, &models::ValueTableModel::reachedEnd, this, [this] {
        updateTableStatus();
        if (m_tableModel->rowCount() == 0)
            return;
        const QModelIndex last = m_tableModel->index(m_tableModel->rowCount() - 1, 0);
        m_table->setCurrentIndex(last);
        m_table->scrollTo(last, QAbstractItemView::PositionAtBottom);
    });

    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    m_valuePages = new QStackedWidget;
    m_valuePages->insertWidget(TextPage, textPage);
    m_valuePages->insertWidget(TablePage, tablePage);
    m_valuePages->insertWidget(MessagePage, m_message);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(m_form);
    layout->addWidget(m_problems);
    layout->addWidget(createEditBar());
    layout->addWidget(m_valuePages, 1);

    connect(inspector, &models::ValueInspector::overviewReady, this, &KeyDetailsView::takeOverview);
}

QString KeyDetailsView::fieldText(const QString& field) const
{
    return detailsFieldText(this, field);
}

QString KeyDetailsView::valueText() const
{
    return m_valuePages->currentIndex() == MessagePage ? m_message->text() : m_text->toPlainText();
}

void KeyDetailsView::showTimeLeft()
{
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    const QString left = displayText(keyspace::formatTimeLeft(m_expiresAtMs, now));
    if (keyspace::hasExpiry(m_expiresAtMs) && m_expiresAtMs > now) {
        m_ttl->setText(left + tr(" (%1 ms)").arg(m_expiresAtMs - now));
    } else {
        m_ttl->setText(left);
        m_ttlTick.stop(); // nothing left to count down
    }
}

void KeyDetailsView::showFindings(const QString& text)
{
    m_findings->setText(text);
}

void KeyDetailsView::showKey(const QByteArray& key, models::NodeRef node, bool memorySampled)
{
    m_fromFile = false;
    m_memorySampled = memorySampled;
    showTitle(key, node);
    for (QLabel* label : {m_type, m_encoding, m_ttl, m_memory, m_length})
        label->setText(QStringLiteral("…"));
    m_message->setText(tr("Loading…"));
    m_valuePages->setCurrentIndex(MessagePage);
    m_inspector->requestOverview(key);
}

void KeyDetailsView::showFileKey(const QByteArray& key, models::NodeRef node, const keyspace::KeyInfo& info,
                                 std::optional<std::uint64_t> length)
{
    m_fromFile = true;
    showTitle(key, node);
    m_type->setText(displayText(keyspace::keyTypeName(info.type).toByteArray()));
    m_encoding->setText(QStringLiteral("–")); // the server picks it again when it loads the file
    m_expiresAtMs = info.expiresAtMs;
    m_ttlTick.start();
    showTimeLeft();
    m_memory->setText(info.memoryMeasured
                          ? models::estimatedFigure(displayText(keyspace::formatBytes(info.memoryBytes)), true)
                          : QStringLiteral("–"));
    m_memory->setToolTip(models::estimatedMemoryNote());
    if (info.memoryMeasured && info.preallocatedBytes > 0) { // a stream: the memory is a range
        m_memory->setText(
            tr("%1; %2 on a server that loads the file")
                .arg(m_memory->text(), displayText(keyspace::formatBytes(info.memoryBytes - info.preallocatedBytes))));
        m_memory->setToolTip(models::memoryRangeNote(info.memoryBytes, info.preallocatedBytes) + u'\n' +
                             models::estimatedMemoryNote());
    }
    if (length) {
        const bool string = info.type == KeyType::String;
        const bool one = *length == 1;
        m_length->setText(displayText(keyspace::formatCount(*length)) +
                          (string ? (one ? tr(" byte") : tr(" bytes")) : (one ? tr(" element") : tr(" elements"))));
    } else {
        m_length->setText(
            tr("– (kept for keys of %1 or more)").arg(displayText(keyspace::formatBytes(scan::KnownLengthsFromBytes))));
    }
    m_message->setText(tr("Read from an RDB file: Keylens keeps each key's name, type, TTL and size, never its value. "
                          "To read values, load the file into a redis-server (redis-server --dir DIR --dbfilename "
                          "FILE) and connect to it."));
    m_valuePages->setCurrentIndex(MessagePage);
    updateEditControls();
    Q_EMIT loaded();
}

void KeyDetailsView::showTitle(const QByteArray& key, models::NodeRef node)
{
    m_ttlTick.stop();
    cancelStringEdit();
    m_keyGone = false; // read again: the overview says whether it exists
    // What the last edit said was about the key shown then: under another key (or another server's) it told the user
    // the pane was read-only while its buttons worked.
    if (key != std::exchange(m_renamedTo, {})) // the pane that followed a rename still says so
        setEditStatus({});
    m_unsaved.reset();
    m_editRequest = 0;                                   // an edit still on its way is the other key's
    if (m_elementDialog && m_elementDialog->isWaiting()) // its answer will not come here: said, and it may send again
        m_elementDialog->refused(tr("The pane was read again before the server answered: the key's value says whether "
                                    "this was written."),
                                 true);
    m_key = key;
    m_node = node;
    m_loaded = false;
    // A 16 KB key name would push everything else off the pane: show its start and say how long it is.
    constexpr qsizetype TitleBytes = 300;
    if (key.size() > TitleBytes)
        m_title->setText(breakable(displayText(keyspace::displayBytes(QByteArrayView(key).first(TitleBytes)))) +
                         tr("… (%1-byte key)").arg(displayText(keyspace::formatCount(std::uint64_t(key.size())))));
    else
        m_title->setText(breakable(displayText(keyspace::displayBytes(key))));
    m_title->setToolTip(keyspace::isPrintableUtf8(key)
                            ? QString()
                            : tr("Shown escaped the way redis-cli does: the key has bytes that are not "
                                 "printable UTF-8. Copy (Ctrl+C) copies it escaped."));
    m_memory->setToolTip(QString());
    m_problems->setVisible(false);
    m_tableModel->clear();
}

void KeyDetailsView::takeOverview(const models::ValueInspector::Overview& overview)
{
    if (m_fromFile || (overview.key.key != m_key && overview.error.isEmpty()))
        return;
    m_overview = overview;
    m_loaded = true;
    if (!overview.error.isEmpty()) {
        m_message->setText(tr("Could not read the key: %1").arg(overview.error));
        m_valuePages->setCurrentIndex(MessagePage);
        updateEditControls();
        Q_EMIT loaded();
        return;
    }
    const inspect::KeyOverview& key = overview.key;
    if (!key.exists) {
        for (QLabel* label : {m_type, m_encoding, m_ttl, m_memory, m_length})
            label->setText(QStringLiteral("–"));
        m_message->setText(tr("The key no longer exists: it expired or was deleted after the scan."));
        m_valuePages->setCurrentIndex(MessagePage);
        updateEditControls(); // nothing to edit: the buttons of the key shown before go
        Q_EMIT loaded();
        return;
    }
    m_type->setText(key.typeName.isEmpty() ? tr("unknown") : displayText(key.typeName));
    m_encoding->setText(key.encoding.isEmpty() ? QStringLiteral("–") : displayText(key.encoding));
    // The TTL counts down here as it does in the tree: kept as an absolute time, shown on every tick.
    m_expiresAtMs = key.pttlMs < 0 ? keyspace::NoExpiry : QDateTime::currentMSecsSinceEpoch() + key.pttlMs;
    m_ttlTick.start();
    showTimeLeft(); // stops the tick again when there is nothing to count down
    m_memory->setText(key.memoryBytes ? displayText(keyspace::formatBytes(*key.memoryBytes)) : QStringLiteral("–"));
    if (key.memoryBytes && m_memorySampled) {
        m_memory->setText(tr("%1 (estimated by the server from 5 elements)").arg(m_memory->text()));
        m_memory->setToolTip(tr("MEMORY USAGE measures a big collection on 5 of its elements and scales up; "
                                "Scan > Measure big collections whole (or --exact-memory) measures it whole."));
    }
    QString length = key.length ? displayText(keyspace::formatCount(*key.length)) : QStringLiteral("–");
    if (key.length && key.type == KeyType::String)
        length += *key.length == 1 ? tr(" byte") : tr(" bytes");
    else if (key.length)
        length += *key.length == 1 ? tr(" element") : tr(" elements");
    const bool big = key.length && (key.type == KeyType::String ? lint::isBigString(*key.length)
                                                                : lint::isBigCollection(*key.length));
    if (big)
        length += tr(" — a big key");
    m_length->setText(length);
    m_problems->setText(key.problems.join(u'\n'));
    m_problems->setVisible(!key.problems.isEmpty());

    if (key.length)
        Q_EMIT lengthKnown(m_node, *key.length);
    switch (key.type) {
    case KeyType::String:
        m_valuePages->setCurrentIndex(TextPage);
        showString();
        break;
    case KeyType::Hash:
    case KeyType::List:
    case KeyType::Set:
    case KeyType::ZSet:
    case KeyType::Stream:
        prepareTableControls(key.type);
        m_tableModel->setKey(key.key, key.type, key.length.value_or(0), queryFromControls());
        // A stream id (1700000000000-0) is read whole or not at all: its column is as wide as an id, not cut in
        // the middle.
        if (QHeaderView* header = m_table->horizontalHeader(); key.type == KeyType::Stream && header->count() > 0)
            header->resizeSection(0, m_table->fontMetrics().horizontalAdvance(QStringLiteral("0000000000000-00")) + 16);
        m_valuePages->setCurrentIndex(TablePage);
        updateTableStatus();
        break;
    case KeyType::Other:
    case KeyType::Unknown:
        m_message->setText(tr("Keylens cannot show values of type '%1' yet.").arg(displayText(key.typeName)));
        m_valuePages->setCurrentIndex(MessagePage);
        break;
    }
    updateEditControls();
    Q_EMIT loaded();
}

void KeyDetailsView::showString()
{
    const inspect::DecodedValue& value = m_overview.value;
    Mode mode = Mode(m_mode->currentIndex());
    if (mode == Mode::Auto) {
        mode = value.kind == inspect::ContentKind::Json     ? Mode::Json
               : value.kind == inspect::ContentKind::Binary ? Mode::Hex
                                                            : Mode::Text;
    }
    QStringList info;
    if (value.compression != inspect::Compression::None) {
        info << tr("%1-compressed: %2 stored, %3 decompressed")
                    .arg(inspect::compressionName(value.compression),
                         displayText(keyspace::formatBytes(std::uint64_t(m_overview.key.valuePrefix.size()))),
                         displayText(keyspace::formatBytes(std::uint64_t(value.bytes.size()))));
    }
    if (!value.problem.isEmpty())
        info << value.problem;
    if (m_overview.key.valueTruncated)
        info << tr("showing the first %1")
                    .arg(displayText(keyspace::formatBytes(std::uint64_t(m_overview.key.valuePrefix.size()))));
    if (value.kind == inspect::ContentKind::Empty)
        info << tr("empty string");
    const char* kindName = mode == Mode::Json ? "JSON" : mode == Mode::Hex ? "hex" : "text";
    info.prepend(QString::fromLatin1(kindName));
    m_valueInfo->setText(info.join(QStringLiteral(" · ")));

    // Text wraps at the pane's width, anywhere in a long word (a token, a URL): a hex dump keeps its columns.
    m_text->setLineWrapMode(mode == Mode::Hex ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    m_text->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    switch (mode) {
    case Mode::Json:
        m_text->setPlainText(displayText(value.prettyJson.isEmpty() ? value.bytes : value.prettyJson));
        break;
    case Mode::Hex:
        m_text->setPlainText(displayText(inspect::hexDump(value.bytes)));
        break;
    case Mode::Text:
    case Mode::Auto:
        m_text->setPlainText(inspect::isReadableText(value.bytes)
                                 ? displayText(value.bytes)
                                 : displayText(keyspace::escapeLikeRedisCli(value.bytes)));
        break;
    }
}

void KeyDetailsView::prepareTableControls(KeyType type)
{
    // A new key starts unsearched; the order chosen for the last sorted set stays, as a leaderboard user reads
    // one after another the same way.
    m_searchDelay.stop();
    m_search->clear();
    const bool searchable = inspect::canSearch(type);
    m_search->setEnabled(searchable);
    const char* what = type == KeyType::Hash ? "fields" : "members";
    const char* command = type == KeyType::Hash ? "HSCAN" : type == KeyType::Set ? "SSCAN" : "ZSCAN";
    // Short enough not to be cut in a narrow pane; the tooltip says how it matches.
    m_search->setPlaceholderText(searchable ? tr("Search %1…").arg(QString::fromLatin1(what))
                                            : tr("No server-side search for this type"));
    m_search->setToolTip(searchable ? tr("Asks the server with %1 … MATCH, a page at a time. Plain text "
                                         "is found anywhere in a name; *, ? and [ ] make a glob. Case "
                                         "matters, as it does for the server.")
                                          .arg(QString::fromLatin1(command))
                                    : QString());
    m_order->setVisible(type == KeyType::ZSet);
    m_order->setEnabled(true);
}

inspect::ValueQuery KeyDetailsView::queryFromControls() const
{
    inspect::ValueQuery query;
    query.match = keyspace::elementMatchPattern(m_search->text().toUtf8());
    query.highestScoreFirst = m_order->currentIndex() == 1;
    return query;
}

void KeyDetailsView::applyQuery()
{
    m_searchDelay.stop();
    const inspect::ValueQuery query = queryFromControls();
    // ZSCAN has no order: a search lists its matches as the server finds them.
    m_order->setEnabled(query.match.isEmpty());
    m_order->setToolTip(query.match.isEmpty() ? QString() : tr("A search comes in the server's scan order"));
    const inspect::ValueQuery& current = m_tableModel->query();
    if (query.match == current.match && query.highestScoreFirst == current.highestScoreFirst)
        return;
    m_tableModel->setQuery(query);
    updateTableStatus();
}

void KeyDetailsView::goToEnd()
{
    if (m_tableModel->isComplete())
        return; // the view's own Ctrl+End gets there
    m_tableStatus->setText(tr("Reading to the end…"));
    m_tableModel->fetchToEnd();
}

bool KeyDetailsView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_End && (key->modifiers() & Qt::ControlModifier))
            goToEnd();
    }
    return QWidget::eventFilter(watched, event);
}

QString KeyDetailsView::tableStatus() const
{
    return m_tableStatus->text();
}

void KeyDetailsView::updateTableStatus()
{
    if (!m_tableModel->lastError().isEmpty()) {
        m_tableStatus->setText(tr("Reading the value failed: %1").arg(m_tableModel->lastError()));
        return;
    }
    const auto loaded = std::uint64_t(m_tableModel->rowCount());
    const QString shown = displayText(keyspace::formatCount(loaded));
    const QString total = displayText(keyspace::formatCount(m_tableModel->expectedElements()));
    const bool complete = m_tableModel->isComplete();
    if (!m_tableModel->query().match.isEmpty()) {
        const QString found = loaded == 1 ? tr("1 match") : tr("%1 matches").arg(shown);
        m_tableStatus->setText(complete ? tr("%1 among %2 elements").arg(found, total)
                                        : tr("%1 so far among %2 elements; scroll for more").arg(found, total));
        return;
    }
    QString status = complete ? tr("All %1 elements").arg(shown)
                              : tr("%1 of %2 elements loaded; scroll for more, Ctrl+End for the end").arg(shown, total);
    if (m_tableModel->isFetchingToEnd())
        status = tr("Reading to the end… %1 of %2 elements").arg(shown, total);
    m_tableStatus->setText(status);
}

} // namespace keylens::ui
