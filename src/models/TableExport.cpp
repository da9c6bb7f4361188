#include "models/TableExport.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/SubtreeTotals.h"
#include "report/JsonWriter.h"

#include <algorithm>

namespace keylens::models {

namespace {

using keyspace::KeyType;

constexpr KeyType ExportedTypes[] = {KeyType::String, KeyType::Hash,   KeyType::List,  KeyType::Set,
                                     KeyType::ZSet,   KeyType::Stream, KeyType::Other, KeyType::Unknown};

struct Row
{
    QByteArray name;      // the segment's bytes
    QByteArray path;      // the key's or namespace's bytes
    QByteArray shownPath; // as the tree shows it (binary bytes escaped): the sort's tie-break, as ever
    bool isKey = false;
    bool hasChildren = false;
    keyspace::SubtreeTotals totals;
};

// The node's children, biggest first, as the tree sorts them by default.
std::vector<Row> rowsOf(const keyspace::Keyspace& store, keyspace::NodeId node)
{
    std::vector<Row> rows;
    store.forEachChild(node, [&](keyspace::NodeId child) {
        QByteArray path = store.path(child);
        QByteArray shownPath = keyspace::displayBytes(path);
        rows.push_back({store.segment(child).toByteArray(), std::move(path), std::move(shownPath), store.isKey(child),
                        store.hasChildren(child), keyspace::subtreeTotals(store, child)});
    });
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.totals.memoryBytes != b.totals.memoryBytes ? a.totals.memoryBytes > b.totals.memoryBytes
                                                            : a.shownPath < b.shownPath;
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
        out += csvField(keyspace::displayBytes(row.name)) + ',' + csvField(row.shownPath) + ',' +
               (row.isKey ? "true" : "false") + ',' + (row.hasChildren ? "true" : "false") + ',' +
               QByteArray::number(t.keys) + ',' + QByteArray::number(t.memoryBytes) + ',' +
               QByteArray::number(t.keysMemoryUnmeasured) + ',' + QByteArray::number(t.keysWithTtl) + ',' +
               QByteArray::number(t.keysTtlUnknown) + ',' +
               (t.keysWithTtl > 0 ? QByteArray::number(t.soonestExpiryMs) : QByteArray());
        for (const KeyType type : ExportedTypes)
            out += ',' + QByteArray::number(t.types[std::size_t(type)]);
        out += "\r\n";
    }
    return out;
}

QByteArray childrenJson(const keyspace::Keyspace& store, keyspace::NodeId node)
{
    // Names and paths as every JSON of ours writes bytes (report::JsonWriter::bytesField): the text, escaped where it
    // is not printable UTF-8, and then the exact bytes in `<field>_base64`.
    QByteArray out;
    report::JsonWriter json(&out);
    json.beginObject();
    json.bytesField("node", node == keyspace::Keyspace::root() ? QByteArray() : store.path(node));
    json.key("children").beginArray();
    for (const Row& row : rowsOf(store, node)) {
        const keyspace::SubtreeTotals& t = row.totals;
        json.beginObject();
        json.bytesField("name", row.name);
        json.bytesField("path", row.path);
        json.key("is_key").value(row.isKey);
        json.key("is_namespace").value(row.hasChildren);
        json.key("keys").value(std::uint64_t(t.keys));
        json.key("memory_bytes").value(std::uint64_t(t.memoryBytes));
        // As in keylens-cli's JSON: where streams read from an RDB file make the memory a range.
        if (t.preallocatedBytes > 0)
            json.key("memory_bytes_if_loaded").value(std::uint64_t(t.memoryBytes - t.preallocatedBytes));
        json.key("keys_memory_not_measured").value(std::uint64_t(t.keysMemoryUnmeasured));
        json.key("keys_with_ttl").value(std::uint64_t(t.keysWithTtl));
        json.key("keys_ttl_unknown").value(std::uint64_t(t.keysTtlUnknown));
        json.key("soonest_expiry_ms");
        if (t.keysWithTtl > 0)
            json.value(std::int64_t(t.soonestExpiryMs));
        else
            json.null();
        json.key("types").beginObject();
        for (const KeyType type : ExportedTypes)
            json.key(keyspace::keyTypeName(type)).value(std::uint64_t(t.types[std::size_t(type)]));
        json.endObject();
        json.endObject();
    }
    json.endArray();
    json.endObject();
    out.append('\n');
    return out;
}

} // namespace keylens::models
