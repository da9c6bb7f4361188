#include "cli/BigKeyLengths.h"

#include "inspect/KeyReader.h"
#include "lint/OverlayRules.h"
#include "redis/Connection.h"

namespace keylens::cli {

QString checkBigKeys(const redis::ConnectionOptions& options, keyspace::Keyspace& store, lint::Linter& linter)
{
    const std::vector<keyspace::NodeId> nodes = lint::bigKeyCandidates(store);
    if (nodes.empty())
        return {};
    const auto unchecked = [&](const QString& why) {
        return QStringLiteral("big-string and big-collection were not checked on %1 keys: %2")
            .arg(nodes.size())
            .arg(why);
    };
    redis::Result<std::unique_ptr<redis::Connection>> connection = redis::Connection::open(options);
    if (!connection)
        return unchecked(connection.error().message);
    std::vector<std::pair<QByteArray, keyspace::KeyType>> keys;
    keys.reserve(nodes.size());
    for (const keyspace::NodeId node : nodes)
        keys.emplace_back(store.path(node), store.keyInfo(node).type);
    const redis::Result<std::vector<std::optional<std::uint64_t>>> lengths = inspect::readLengths(**connection, keys);
    if (!lengths)
        return unchecked(lengths.error().message);
    std::size_t unknown = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (const std::optional<std::uint64_t> length = (*lengths)[i])
            linter.lengthKnown(store, nodes[i], *length);
        else
            ++unknown; // gone since the scan, or its length command was denied
    }
    if (nodes.size() >= lint::BigKeyCandidatesMaximum)
        return QStringLiteral("big-string and big-collection were checked on the first %1 keys that may be big "
                              "only")
            .arg(nodes.size());
    if (unknown > 0)
        return QStringLiteral("big-string and big-collection were not checked on %1 of %2 keys: their length command "
                              "was denied or they are gone")
            .arg(unknown)
            .arg(nodes.size());
    return {};
}

} // namespace keylens::cli
