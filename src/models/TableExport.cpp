#include "models/TableExport.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/SubtreeTotals.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace keylens::models {

namespace {

using keyspace::KeyType;

constexpr KeyType ExportedTypes[] = {KeyType::String, KeyType::Hash,   KeyType::List,  KeyType::Set,
                                     KeyType::ZSet,   KeyType::Stream, KeyType::Other, KeyType::Unknown};

struct Row
{
    QByteArray name;
    QByteArray path;
    bool isKey = false;
    bool hasChildren = false;
    keyspace::SubtreeTotals totals;
};

// The node's children, biggest first, as the tree sorts them by default.
std::vector<Row> rowsOf(const keyspace::Keyspace& store, keyspace::NodeId node)
{
    std::vector<Row> rows;
    store.forEachChild(node, [&](keyspace::NodeId child) {
        rows.push_back({keyspace::displayBytes(store.segment(child)), keyspace::displayBytes(store.path(child)),
                        store.isKey(child), store.hasChildren(child), keyspace::subtreeTotals(store, child)});
    });
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.totals.memoryBytes != b.totals.memoryBytes ? a.totals.memoryBytes > b.totals.memoryBytes
                                                            : a.path < b.path;
    });
    return rows;
}

QByteArray csvField(const QByteArray& text)
{
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
        return text;
    return '"' + QByteArray(text).replace("\"", "\"\"") + '"';
}

} // namespace

QByteArray childrenCsv(const keyspace::Keyspace& store, keyspace::NodeId node)
{
    QByteArray out = "name,path,is_key,is_namespace,keys,memory_bytes,keys_memory_not_measured,keys_with_ttl,"
                     "keys_ttl_unknown,soonest_expiry_ms";
    for (const KeyType type : ExportedTypes)
        out += ",type_" + keyspace::keyTypeName(type).toByteArray();
    out += "\r\n";
    for (const Row& row : rowsOf(store, node)) {
        const keyspace::SubtreeTotals& t = row.totals;
        out += csvField(row.name) + ',' + csvField(row.path) + ',' + (row.isKey ? "true" : "false") + ',' +
               (row.hasChildren ? "true" : "false") + ',' + QByteArray::number(t.keys) + ',' +
               QByteArray::number(t.memoryBytes) + ',' + QByteArray::number(t.keysMemoryUnmeasured) + ',' +
               QByteArray::number(t.keysWithTtl) + ',' + QByteArray::number(t.keysTtlUnknown) + ',' +
               (t.keysWithTtl > 0 ? QByteArray::number(t.soonestExpiryMs) : QByteArray());
        for (const KeyType type : ExportedTypes)
            out += ',' + QByteArray::number(t.types[std::size_t(type)]);
        out += "\r\n";
    }
    return out;
}

QByteArray childrenJson(const keyspace::Keyspace& store, keyspace::NodeId node)
{
    QJsonArray rows;
    for (const Row& row : rowsOf(store, node)) {
        const keyspace::SubtreeTotals& t = row.totals;
        QJsonObject types;
        for (const KeyType type : ExportedTypes)
            types.insert(QString::fromLatin1(keyspace::keyTypeName(type)), double(t.types[std::size_t(type)]));
        QJsonObject fields{
            {QStringLiteral("name"), QString::fromUtf8(row.name)},
            {QStringLiteral("path"), QString::fromUtf8(row.path)},
            {QStringLiteral("is_key"), row.isKey},
            {QStringLiteral("is_namespace"), row.hasChildren},
            {QStringLiteral("keys"), double(t.keys)},
            {QStringLiteral("memory_bytes"), double(t.memoryBytes)},
            {QStringLiteral("keys_memory_not_measured"), double(t.keysMemoryUnmeasured)},
            {QStringLiteral("keys_with_ttl"), double(t.keysWithTtl)},
            {QStringLiteral("keys_ttl_unknown"), double(t.keysTtlUnknown)},
            {QStringLiteral("soonest_expiry_ms"),
             t.keysWithTtl > 0 ? QJsonValue(double(t.soonestExpiryMs)) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("types"), types},
        };
        // As in keylens-cli's JSON: where streams read from an RDB file make the memory a range.
        if (t.preallocatedBytes > 0)
            fields.insert(QStringLiteral("memory_bytes_if_loaded"), double(t.memoryBytes - t.preallocatedBytes));
        rows.append(fields);
    }
    const QByteArray parent =
        node == keyspace::Keyspace::root() ? QByteArray() : keyspace::displayBytes(store.path(node));
    return QJsonDocument(
               QJsonObject{{QStringLiteral("node"), QString::fromUtf8(parent)}, {QStringLiteral("children"), rows}})
        .toJson(QJsonDocument::Indented);
}

} // namespace keylens::models
