#include "history/SnapshotOfJsonReport.h"

#include "history/NamespaceLister.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <limits>

namespace keylens::history {

namespace {

std::uint64_t count(const QJsonObject& object, QLatin1StringView field)
{
    const double value = object.value(field).toDouble(0);
    return value > 0 ? std::uint64_t(value) : 0;
}

// A path, name or pattern: its exact bytes when the report gave them (`<field>_base64`), else its text.
QByteArray bytesOf(const QJsonObject& object, const QString& field)
{
    const QJsonValue exact = object.value(field + QStringLiteral("_base64"));
    if (exact.isString())
        return QByteArray::fromBase64(exact.toString().toLatin1());
    return object.value(field).toString().toUtf8();
}

SnapshotStats statsOf(const QJsonObject& object, std::int64_t generatedAtMs)
{
    SnapshotStats stats;
    stats.keys = count(object, QLatin1StringView("keys"));
    stats.memoryBytes = count(object, QLatin1StringView("memory_bytes"));
    stats.keysWithTtl = count(object, QLatin1StringView("keys_with_ttl"));
    stats.keysMemoryUnmeasured = count(object, QLatin1StringView("keys_memory_unmeasured"));
    stats.keysTtlUnknown = count(object, QLatin1StringView("keys_ttl_unknown"));
    // The report gives the time left, as of when it was made.
    if (const QJsonValue soonest = object.value(QLatin1StringView("ttl_min_ms")); soonest.isDouble())
        stats.soonestExpiryMs = generatedAtMs + std::int64_t(soonest.toDouble());
    if (const QJsonValue latest = object.value(QLatin1StringView("ttl_max_ms")); latest.isDouble())
        stats.latestExpiryMs = generatedAtMs + std::int64_t(latest.toDouble());
    const QJsonObject types = object.value(QLatin1StringView("types")).toObject();
    for (std::size_t type = 0; type < stats.types.size(); ++type) {
        const QByteArrayView name = keyspace::keyTypeName(keyspace::KeyType(type));
        stats.types[type] = count(types, QLatin1StringView(name.data(), name.size()));
    }
    return stats;
}

Unlisted unlistedOf(const QJsonObject& object)
{
    const QJsonObject others = object.value(QLatin1StringView("others")).toObject();
    return {count(others, QLatin1StringView("namespaces")), count(others, QLatin1StringView("keys")),
            count(others, QLatin1StringView("memory_bytes"))};
}

} // namespace

std::optional<Snapshot> snapshotOfJsonReport(QByteArrayView json, std::int64_t fallbackTimeMs, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json.toByteArray(), &parseError);
    if (document.isNull()) {
        *error =
            QStringLiteral("it is not valid JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset);
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    if (root.value(QLatin1StringView("tool")).toString() != QLatin1StringView("keylens") ||
        !root.value(QLatin1StringView("totals")).isObject() || !root.value(QLatin1StringView("namespaces")).isArray()) {
        *error = QStringLiteral("it is JSON but not a keylens-cli scan report");
        return std::nullopt;
    }
    if (const int schema = root.value(QLatin1StringView("schema")).toInt(); schema != 1) {
        *error = QStringLiteral("it is a scan report of schema %1; this Keylens reads schema 1").arg(schema);
        return std::nullopt;
    }
    const QJsonObject server = root.value(QLatin1StringView("server")).toObject();
    const QJsonObject scan = root.value(QLatin1StringView("scan")).toObject();
    Snapshot snapshot;
    const QJsonValue generated = scan.value(QLatin1StringView("generated_at_ms"));
    snapshot.takenAtMs = generated.isDouble() ? std::int64_t(generated.toDouble()) : fallbackTimeMs;
    snapshot.complete = scan.value(QLatin1StringView("complete")).toBool() &&
                        !scan.value(QLatin1StringView("cancelled")).toBool() &&
                        scan.value(QLatin1StringView("error")).isNull();
    snapshot.server.address = server.value(QLatin1StringView("address")).toString().toUtf8();
    snapshot.server.runId = server.value(QLatin1StringView("run_id")).toString().toUtf8();
    snapshot.server.redisVersion = server.value(QLatin1StringView("redis_version")).toString().toUtf8();
    snapshot.server.db = server.value(QLatin1StringView("db")).toInt();
    if (const QJsonValue dbsize = server.value(QLatin1StringView("dbsize")); dbsize.isDouble())
        snapshot.server.dbsize = std::int64_t(dbsize.toDouble());
    if (const QJsonValue used = server.value(QLatin1StringView("used_memory")); used.isDouble())
        snapshot.server.usedMemory = std::int64_t(used.toDouble());
    snapshot.delimiters = scan.value(QLatin1StringView("delimiter")).toString().toUtf8();
    const QJsonObject totals = root.value(QLatin1StringView("totals")).toObject();
    snapshot.totals = statsOf(totals, snapshot.takenAtMs);
    snapshot.keysScanned = snapshot.totals.keys;
    snapshot.unlistedTopLevel = unlistedOf(root);

    // Parents before children, as the format keeps them: breadth first over the nested lists. The report listed what
    // it was asked to: no cap here.
    NamespaceLister lister(snapshot, std::numeric_limits<std::size_t>::max());
    std::vector<std::pair<QJsonObject, std::uint32_t>> level;
    for (const QJsonValue entry : root.value(QLatin1StringView("namespaces")).toArray())
        level.emplace_back(entry.toObject(), SnapshotNamespace::TopLevel);
    while (!level.empty()) {
        std::vector<std::pair<QJsonObject, std::uint32_t>> next;
        for (const auto& [object, parent] : level) {
            SnapshotNamespace entry;
            entry.parent = parent;
            entry.path = bytesOf(object, QStringLiteral("path"));
            entry.stats = statsOf(object, snapshot.takenAtMs);
            entry.library = object.value(QLatin1StringView("library")).toString().toUtf8();
            entry.unlisted = unlistedOf(object);
            // The report does not say its --depth: the deepest level it lists is the most that can be compared.
            const std::uint32_t index = *lister.add(std::move(entry));
            for (const QJsonValue child : object.value(QLatin1StringView("children")).toArray())
                next.emplace_back(child.toObject(), index);
        }
        level = std::move(next);
    }
    for (const QJsonValue value : root.value(QLatin1StringView("patterns")).toArray()) {
        const QJsonObject object = value.toObject();
        snapshot.patterns.push_back({bytesOf(object, QStringLiteral("pattern")), statsOf(object, snapshot.takenAtMs),
                                     object.value(QLatin1StringView("library")).toString().toUtf8()});
    }
    for (const QJsonValue value : root.value(QLatin1StringView("libraries")).toArray()) {
        const QJsonObject object = value.toObject();
        snapshot.libraries.push_back({object.value(QLatin1StringView("library")).toString().toUtf8(),
                                      count(object, QLatin1StringView("keys")),
                                      count(object, QLatin1StringView("memory_bytes"))});
    }
    return snapshot;
}

} // namespace keylens::history
