#include "ui/NamespaceDetailsView.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "models/DeltaCells.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"
#include "models/FindingsText.h"
#include "models/KeyTreeModel.h"
#include "models/KeyspaceView.h"
#include "models/RowPresenter.h"
#include "models/ScanSession.h"
#include "models/TopKeysQuery.h"
#include "redis/ClusterSlot.h"
#include "ui/DetailsForm.h"

#include <QDateTime>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace keylens::ui {

using models::displayText;

using models::KeyTreeModel;

namespace {

constexpr int NodeIdRole = Qt::UserRole + 1;
constexpr int GenerationRole = Qt::UserRole + 2;

} // namespace

NamespaceDetailsView::NamespaceDetailsView(const models::ScanSession& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_query(new models::TopKeysQuery(session.view(), this))
{
    m_title = createDetailsTitle();

    m_form = new QFormLayout;
    m_keys = addDetailsField(m_form, tr("Keys"));
    m_memory = addDetailsField(m_form, tr("Memory"));
    m_share = addDetailsField(m_form, tr("Share of parent"));
    m_ttl = addDetailsField(m_form, tr("With TTL"));
    m_expiry = addDetailsField(m_form, tr("Expiries"));
    m_types = addDetailsField(m_form, tr("Types"));
    m_children = addDetailsField(m_form, tr("Children"));
    m_findings = addDetailsField(m_form, tr("Findings"));
    m_idle = addDetailsField(m_form, tr("Idle"));
    m_change = addDetailsField(m_form, tr("Change"));
    m_form->setRowVisible(m_change, false);
    m_notes = new QLabel;
    m_notes->setWordWrap(true);

    m_topKeys = new QTreeWidget;
    m_topKeys->setRootIsDecorated(false);
    m_topKeys->setUniformRowHeights(true);
    m_topKeys->setAlternatingRowColors(true);
    m_topKeys->setHeaderLabels({tr("Biggest keys"), tr("Memory"), tr("Type"), QStringLiteral("TTL"), tr("Slot")});
    m_topKeys->headerItem()->setToolTip(4, tr("The cluster hash slot the key lives in: a big key weighs on "
                                              "the shard that serves it"));
    m_topKeys->setColumnHidden(4, true); // a cluster's only
    m_topKeys->header()->setStretchLastSection(false);
    m_topKeys->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int column = 1; column < 5; ++column)
        m_topKeys->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    connect(m_topKeys, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        Q_EMIT keyActivated(
            {keyspace::NodeId(item->data(0, NodeIdRole).toULongLong()), item->data(0, GenerationRole).toULongLong()});
    });
    // The list named keys of the store that goes.
    connect(&session.view(), &models::KeyspaceView::storeReplaced, this, [this] {
        m_topKeysOf = {};
        m_topKeys->clear();
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(m_form);
    layout->addWidget(m_notes);
    layout->addWidget(m_topKeys, 1);
}

QString NamespaceDetailsView::fieldText(const QString& field) const
{
    return detailsFieldText(this, field);
}

QString NamespaceDetailsView::notesText() const
{
    return m_notes->isVisibleTo(this) ? m_notes->text() : QString();
}

QString NamespaceDetailsView::idleText(const keyspace::AccessFigures& access, const keyspace::NamespaceStats& stats,
                                       std::int64_t coldAfterSeconds, bool fromFile)
{
    const auto duration = [](std::uint32_t seconds) {
        return displayText(keyspace::formatDuration(std::int64_t(seconds) * 1000));
    };
    if (access.idleP50Seconds && access.idleP90Seconds) {
        QString text = tr("median %1, 90% %2").arg(duration(*access.idleP50Seconds), duration(*access.idleP90Seconds));
        const QString after = duration(std::uint32_t(coldAfterSeconds));
        if (stats.keysCold == 0)
            return text + tr("; no key idle past %1").arg(after);
        text += tr("; %1 keys idle past %2 hold %3")
                    .arg(displayText(keyspace::formatCount(stats.keysCold)), after,
                         displayText(keyspace::formatBytes(stats.coldMemoryBytes)));
        if (const std::optional<double> share = stats.coldShare())
            text += tr(" (%1 of the memory)").arg(displayText(keyspace::formatPercent(*share)));
        return text;
    }
    if (access.frequencyP50 && access.frequencyP90)
        return tr("access counters (LFU): median %1, 90% %2").arg(*access.frequencyP50).arg(*access.frequencyP90);
    if (fromFile)
        return tr("not measured (the file was saved without an LRU or LFU policy)");
    return tr("not measured (Scan > Measure idle times)");
}

void NamespaceDetailsView::showNamespace(models::NodeRef ref, bool topKeys)
{
    const models::KeyspaceView& keyspace = m_session.view();
    const KeyTreeModel& model = *m_session.model();
    const keyspace::NodeId node = keyspace.nodeOf(ref);
    if (node == keyspace::InvalidNode)
        return; // of a store that went: the pane shows the new one's when it is selected
    const KeyTreeModel::Totals totals = model.totalsOf(node);
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    m_title->setText(node == keyspace::RootNode
                         ? tr("All keys")
                         : displayText(keyspace::displayBytes(keyspace.namespacePrefix(ref))) + u'*');
    m_keys->setText(keyspace.isKey(ref) ? QStringLiteral("%1 (%2)").arg(displayText(keyspace::formatCount(totals.keys)),
                                                                        models::keyAndBelowText(totals.keys))
                                        : displayText(keyspace::formatCount(totals.keys)));
    const bool estimated = keyspace.memoryEstimated();
    m_memory->setText(memoryWithPerKeyText(keyspace::memoryFigureOf(totals), estimated));
    m_memory->setToolTip(estimated ? models::estimatedMemoryNote() : QString());
    if (totals.preallocatedBytes > 0) { // streams read from the file: the memory is a range
        m_memory->setText(tr("%1; %2 on a server that loads the file")
                              .arg(m_memory->text(),
                                   displayText(keyspace::formatBytes(totals.memoryBytes - totals.preallocatedBytes))));
        m_memory->setToolTip(models::memoryRangeNote(totals.memoryBytes, totals.preallocatedBytes) + u'\n' +
                             models::estimatedMemoryNote());
    }
    // Under a filter or a findings narrowing, the matching keys' figures lead, as the tree's cells show them:
    // "how much memory do the keys without a TTL take?" is read here.
    if (model.isFiltering()) {
        const std::uint64_t matching = std::min<std::uint64_t>(model.matchingKeysOf(node), totals.keys);
        m_keys->setText(
            tr("%1 of %2 match the filter")
                .arg(displayText(keyspace::formatCount(matching)), displayText(keyspace::formatCount(totals.keys))));
        m_memory->setText(tr("%1 in the matching keys (%2 in all)")
                              .arg(memoryWithPerKeyText(model.matchingMemoryOf(node), estimated),
                                   displayText(keyspace::formatMemory(keyspace::memoryFigureOf(totals)))));
    }
    if (const std::optional<keyspace::MemoryEstimate> estimate = m_session.sampledEstimate(ref);
        estimate && keyspace.hasChildren(ref) && !model.isFiltering()) {
        if (estimate->bytes)
            m_memory->setText(tr("≈ %1 ± %2  (estimated from %3 of %4 keys sampled; %5 measured)")
                                  .arg(displayText(keyspace::formatBytes(std::uint64_t(*estimate->bytes))),
                                       estimate->bound
                                           ? displayText(keyspace::formatBytes(std::uint64_t(*estimate->bound)))
                                           : QStringLiteral("?"),
                                       displayText(keyspace::formatCount(estimate->sampledKeys)),
                                       displayText(keyspace::formatCount(totals.keys)),
                                       displayText(keyspace::formatBytes(totals.memoryBytes))));
    }
    if (node == keyspace::RootNode) {
        m_share->setText(QStringLiteral("–"));
    } else {
        const KeyTreeModel::Totals parent = model.totalsOf(keyspace.nodeOf(keyspace.parent(ref)));
        m_share->setText(
            tr("%1 of memory, %2 of keys")
                .arg(displayText(keyspace::formatPercent(
                         parent.memoryBytes ? double(totals.memoryBytes) / double(parent.memoryBytes) : 0.0)),
                     displayText(
                         keyspace::formatPercent(parent.keys ? double(totals.keys) / double(parent.keys) : 0.0))));
    }
    const std::optional<double> ttlShare = totals.ttlShare();
    if (!ttlShare && totals.keys > 0) {
        m_ttl->setText(tr("not measured (PTTL denied)"));
    } else {
        QString ttl = tr("%1 keys (%2)")
                          .arg(displayText(keyspace::formatCount(totals.keysWithTtl)),
                               displayText(keyspace::formatPercent(ttlShare.value_or(0.0))));
        if (totals.keysTtlUnknown > 0)
            ttl += tr("; not measured for %1 keys").arg(displayText(keyspace::formatCount(totals.keysTtlUnknown)));
        m_ttl->setText(ttl);
    }
    const keyspace::NamespaceStats stats = keyspace.stats(ref);
    if (totals.keysWithTtl > 0) {
        const std::int64_t latest = std::max(stats.latestExpiryMs, totals.soonestExpiryMs);
        if (latest <= now)
            m_expiry->setText(tr("all have expired since the scan"));
        else if (totals.soonestExpiryMs <= now)
            m_expiry->setText(tr("some have expired since the scan; the latest in %1")
                                  .arg(displayText(keyspace::formatDuration(latest - now))));
        else
            m_expiry->setText(tr("soonest in %1, latest in %2")
                                  .arg(displayText(keyspace::formatDuration(totals.soonestExpiryMs - now)),
                                       displayText(keyspace::formatDuration(latest - now))));
    } else {
        m_expiry->setText(tr("no key expires"));
    }
    QStringList types;
    for (int i = 0; i < keyspace::KeyTypeCount; ++i) {
        if (const std::uint64_t count = totals.types[std::size_t(i)])
            types << displayText(keyspace::keyTypeName(keyspace::KeyType(i)).toByteArray()) + u' ' +
                         displayText(keyspace::formatCount(count));
    }
    m_types->setText(types.join(QStringLiteral(", ")));
    m_children->setText(displayText(keyspace::formatCount(stats.childCount)));
    m_findings->setText(totals.findingCount() ? models::findingsBySeverity(totals.findings) : tr("none"));
    m_idle->setText(
        idleText(keyspace.access(ref, now / 1000), stats, keyspace.coldAfterSeconds(), keyspace.fromFile()));
    if (const models::Comparison* comparison = model.comparison()) {
        m_change->setText(models::deltaSummary(model.deltaOfNode(node), comparison->label()));
        m_form->setRowVisible(m_change, true);
    } else {
        m_form->setRowVisible(m_change, false);
    }
    QStringList notes;
    if (totals.keysMemoryUnmeasured)
        notes << tr("Memory was not measured for %1 keys (MEMORY USAGE denied or skipped); the sum "
                    "leaves them out.")
                     .arg(displayText(keyspace::formatCount(totals.keysMemoryUnmeasured)));
    if (totals.keysMemorySampled) {
        const QString sampledBytes = displayText(keyspace::formatBytes(totals.memorySampledBytes));
        notes
            << (totals.keysMemorySampled == 1
                    ? tr("The server estimated the memory of 1 key (%1 of it) from 5 of its elements").arg(sampledBytes)
                    : tr("The server estimated the memory of %1 keys (%2 of it) from 5 of their elements")
                          .arg(displayText(keyspace::formatCount(totals.keysMemorySampled)), sampledBytes)) +
                   tr(": big collections, measured so by MEMORY USAGE unless asked otherwise. Scan > Measure big "
                      "collections whole (or --exact-memory) measures them whole.");
    }
    if (const lint::LibraryInfo* library = model.libraryOf(node))
        notes << tr("Written by %1, a %2 (%3). The naming rules skip a library's keys; memory and TTL "
                    "rules still apply.")
                     .arg(QString::fromUtf8(library->name), QString::fromUtf8(lint::roleName(library->role)),
                          QString::fromUtf8(library->layout));
    if (keyspace.isKey(ref))
        notes << tr("%1 is also a key itself; the totals include it.")
                     .arg(displayText(keyspace::displayBytes(keyspace.path(ref))));
    m_notes->setText(notes.join(u'\n'));
    m_notes->setVisible(!notes.isEmpty());

    // Findings and lengths that arrive after the scan refresh the aggregates, not the keys: the same store with the
    // same keys has the same biggest keys.
    const TopKeysOf shown{ref, keyspace.keyCount()};
    if (!topKeys || shown == m_topKeysOf)
        return;
    m_topKeysOf = shown;
    m_topKeys->clear();
    m_query->start(ref, TopKeyCount, [this](std::vector<models::TopKeysQuery::Key> keys) { showTopKeys(keys); });
}

bool NamespaceDetailsView::isListingTopKeys() const
{
    return m_query->isRunning();
}

void NamespaceDetailsView::showTopKeys(const std::vector<models::TopKeysQuery::Key>& keys)
{
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    const bool estimated = m_session.view().memoryEstimated();
    QList<QTreeWidgetItem*> items;
    for (const models::TopKeysQuery::Key& key : keys) {
        auto* item = new QTreeWidgetItem;
        item->setText(0, displayText(keyspace::displayBytes(key.path)));
        const QString memory = displayText(keyspace::formatBytes(key.info.memoryBytes));
        item->setText(1, estimated ? models::estimatedCell(memory) : memory);
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(2, displayText(keyspace::keyTypeName(key.info.type).toByteArray()));
        item->setText(3, displayText(keyspace::formatTimeLeft(key.info.expiresAtMs, now)));
        if (m_cluster) {
            item->setText(4, QString::number(redis::clusterSlot(key.path)));
            item->setTextAlignment(4, Qt::AlignRight | Qt::AlignVCenter);
        }
        item->setData(0, NodeIdRole, qulonglong(key.node.node));
        item->setData(0, GenerationRole, qulonglong(key.node.generation));
        items << item;
    }
    m_topKeys->addTopLevelItems(items);
}

void NamespaceDetailsView::setCluster(bool cluster)
{
    m_cluster = cluster;
    m_topKeys->setColumnHidden(4, !cluster);
}

} // namespace keylens::ui
