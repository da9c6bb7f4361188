#include "inspect/EndOfScanReads.h"

#include "base/SideTask.h"
#include "inspect/KeyReader.h"
#include "inspect/ValuePrefixes.h"
#include "keyspace/Units.h"
#include "lint/ValueShape.h"
#include "redis/Connection.h"

namespace keylens::inspect {

namespace {

void askLengths(const redis::ConnectionOptions& options, Touching touching, BigKeyLengths& lengths,
                const std::atomic<bool>* cancel)
{
    if (lengths.candidates.keys.empty())
        return;
    redis::Result<std::unique_ptr<redis::Connection>> connection = redis::Connection::open(options, cancel);
    if (!connection) {
        lengths.error = connection.error().message;
        return;
    }
    QString touchingWhy;
    const redis::Result<bool> untouched = readWithoutTouching(**connection, &touchingWhy);
    if (!untouched) {
        lengths.error = untouched.error().message;
        return;
    }
    if (!*untouched && touching == Touching::OnlyIfUntouched) {
        lengths.error =
            QStringLiteral("reading a length would reset the idle time this scan measured, and ") + touchingWhy;
        return;
    }
    redis::Result<std::vector<std::optional<std::uint64_t>>> answers =
        readLengths(**connection, lengths.candidates.keys);
    if (!answers) {
        lengths.error = answers.error().message;
        return;
    }
    lengths.lengths = std::move(*answers);
}

} // namespace

Touching touchingFor(const scan::ScanOptions& options)
{
    return options.measureAccess ? Touching::OnlyIfUntouched : Touching::Allowed;
}

lint::SetMembers readLibrarySets(const redis::ConnectionOptions& server, const keyspace::Keyspace& store,
                                 Touching touching)
{
    return readSetMembers(server, lint::LibraryLayouts::keysToRead(store), touching);
}

BigKeyLengths judgeBesideLengths(const keyspace::Keyspace& store, const redis::ConnectionOptions* server,
                                 Touching touching, std::optional<lint::SetMembers> known,
                                 const std::function<void(const lint::SetMembers&)>& judge,
                                 const std::atomic<bool>* cancel, const QHash<QByteArray, std::uint64_t>* fileLengths)
{
    BigKeyLengths lengths;
    lengths.candidates = lint::bigKeyCandidates(store);
    if (fileLengths) {
        // A key the file did not keep a length of (over KnownLengthsMaximum) stays unknown, and is counted so.
        lengths.lengths.reserve(lengths.candidates.keys.size());
        for (const auto& [key, type] : lengths.candidates.keys) {
            const auto found = fileLengths->constFind(key);
            lengths.lengths.push_back(found == fileLengths->cend() ? std::nullopt : std::optional(*found));
        }
        judge(known.value_or(lint::SetMembers()));
        return lengths;
    }
    if (!server) {
        lengths.error = QStringLiteral("the scan did not finish, so the server was not asked");
        judge(known.value_or(lint::SetMembers()));
        return lengths;
    }
    const lint::SetMembers members = known ? std::move(*known) : readLibrarySets(*server, store, touching);
    base::SideTask asking([&] { askLengths(*server, touching, lengths, cancel); });
    judge(members);
    asking.wait();
    return lengths;
}

QString recordBigKeyLengths(keyspace::Keyspace& store, lint::Linter& linter, const BigKeyLengths& lengths)
{
    const std::size_t asked = lengths.candidates.nodes.size();
    if (asked == 0)
        return {};
    if (!lengths.error.isEmpty() || lengths.lengths.size() != asked)
        return QStringLiteral("big-string and big-collection were not checked on %1: %2")
            .arg(QString::fromUtf8(keyspace::formatCounted(asked, "key")), lengths.error);
    std::size_t unknown = 0;
    for (std::size_t i = 0; i < asked; ++i) {
        if (const std::optional<std::uint64_t> length = lengths.lengths[i])
            linter.lengthKnown(store, lengths.candidates.nodes[i], *length);
        else
            ++unknown; // gone since the scan, or its length command was denied
    }
    if (asked >= lint::BigKeyCandidatesMaximum)
        return QStringLiteral("big-string and big-collection were checked on the first %1 keys that may be big "
                              "only")
            .arg(asked);
    if (unknown > 0)
        return QStringLiteral("big-string and big-collection were not checked on %1 of %2 keys: their length command "
                              "was denied or they are gone")
            .arg(unknown)
            .arg(asked);
    return {};
}

lint::ValueSource valueSourceFor(const scan::ScanOptions& options, const scan::ScanSummary& summary, bool finished)
{
    lint::ValueSource source;
    if (!options.rdbFile.isEmpty()) {
        source.kept = summary.valuePrefixes;
        source.keptMembers = summary.valueMembers;
        return source;
    }
    if (!finished)
        return source;
    // Idle times that were not measured (OBJECT denied or failed from the start) are none to protect.
    const Touching touching = summary.access == scan::AccessQuestion::None ? Touching::Allowed : touchingFor(options);
    source.read = [server = options.connection, touching](const lint::ValueQuestion& question) {
        ValuePrefixes read = readValuePrefixes(server, question, touching, lint::ValuePrefixBytes);
        return lint::ValueRead{std::move(read.values), std::move(read.members), std::move(read.unread)};
    };
    return source;
}

} // namespace keylens::inspect
