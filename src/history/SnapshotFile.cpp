#include "history/SnapshotFile.h"

#include "history/Gzip.h"

#include <QSaveFile>

namespace keylens::history {

namespace {

constexpr QByteArrayView Magic = "KEYLENS-SNAPSHOT\n";
constexpr char EndMark = 'E';
// A snapshot is a few MB; a file that inflates past this is not one.
constexpr qsizetype MaximumContents = qsizetype(1) << 30;

// Integers as LEB128 varints (signed ones zigzag-encoded): most counts are small, and a 10M-key scan's snapshot lists
// tens of thousands of namespaces.
class Encoder
{
public:
    void unsignedNumber(std::uint64_t value)
    {
        while (value >= 0x80) {
            m_out.append(char((value & 0x7f) | 0x80));
            value >>= 7;
        }
        m_out.append(char(value));
    }
    void signedNumber(std::int64_t value) { unsignedNumber((std::uint64_t(value) << 1) ^ std::uint64_t(value >> 63)); }
    void bytes(QByteArrayView value)
    {
        unsignedNumber(std::uint64_t(value.size()));
        m_out.append(value);
    }
    void raw(QByteArrayView value) { m_out.append(value); }
    void stats(const SnapshotStats& stats)
    {
        for (const std::uint64_t count :
             {stats.keys, stats.memoryBytes, stats.keysWithTtl, stats.keysMemoryUnmeasured, stats.keysTtlUnknown})
            unsignedNumber(count);
        unsignedNumber((stats.soonestExpiryMs ? 1u : 0u) | (stats.latestExpiryMs ? 2u : 0u));
        if (stats.soonestExpiryMs)
            signedNumber(*stats.soonestExpiryMs);
        if (stats.latestExpiryMs)
            signedNumber(*stats.latestExpiryMs);
        for (const std::uint64_t count : stats.types)
            unsignedNumber(count);
    }
    void unlisted(const Unlisted& unlisted)
    {
        unsignedNumber(unlisted.namespaces);
        unsignedNumber(unlisted.keys);
        unsignedNumber(unlisted.memoryBytes);
    }
    QByteArray& out() { return m_out; }

private:
    QByteArray m_out;
};

// Reads what Encoder wrote; the first problem stops it, and every read after returns zeros.
class Decoder
{
public:
    explicit Decoder(QByteArrayView in)
        : m_in(in)
    {}

    bool failed() const { return !m_problem.isEmpty(); }
    QString problem() const { return m_problem; }
    qsizetype offset() const { return m_at; }
    bool atEnd() const { return m_at == m_in.size(); }
    void fail(const QString& problem)
    {
        if (m_problem.isEmpty())
            m_problem = QStringLiteral("%1 at byte %2 of its contents").arg(problem).arg(m_at);
    }

    std::uint64_t unsignedNumber()
    {
        std::uint64_t value = 0;
        for (int shift = 0; !failed(); shift += 7) {
            if (m_at >= m_in.size()) {
                fail(QStringLiteral("it ends inside a number"));
                break;
            }
            const auto byte = static_cast<unsigned char>(m_in[m_at++]);
            if (shift == 63 && byte > 1) {
                fail(QStringLiteral("a number is too long"));
                break;
            }
            value |= std::uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return value;
        }
        return 0;
    }
    std::int64_t signedNumber()
    {
        const std::uint64_t value = unsignedNumber();
        return std::int64_t(value >> 1) ^ -std::int64_t(value & 1);
    }
    QByteArray bytes()
    {
        const std::uint64_t size = unsignedNumber();
        if (failed())
            return {};
        if (size > std::uint64_t(m_in.size() - m_at)) {
            fail(QStringLiteral("a %1-byte field runs past its end").arg(size));
            return {};
        }
        const QByteArray value = m_in.sliced(m_at, qsizetype(size)).toByteArray();
        m_at += qsizetype(size);
        return value;
    }
    char byte()
    {
        if (m_at >= m_in.size()) {
            fail(QStringLiteral("it ends early"));
            return 0;
        }
        return m_in[m_at++];
    }
    // A count of records that each take at least `recordBytes`: more than the bytes left is damage, found before
    // anything is allocated for them.
    std::uint64_t count(std::uint64_t recordBytes)
    {
        const std::uint64_t value = unsignedNumber();
        if (!failed() && value > std::uint64_t(m_in.size() - m_at) / recordBytes)
            fail(QStringLiteral("a count of %1 records is more than the file holds").arg(value));
        return failed() ? 0 : value;
    }
    SnapshotStats stats()
    {
        SnapshotStats stats;
        for (std::uint64_t* count :
             {&stats.keys, &stats.memoryBytes, &stats.keysWithTtl, &stats.keysMemoryUnmeasured, &stats.keysTtlUnknown})
            *count = unsignedNumber();
        const std::uint64_t present = unsignedNumber();
        if (present > 3)
            fail(QStringLiteral("unknown expiry flags %1").arg(present));
        if (present & 1)
            stats.soonestExpiryMs = signedNumber();
        if (present & 2)
            stats.latestExpiryMs = signedNumber();
        for (std::uint64_t& count : stats.types)
            count = unsignedNumber();
        return stats;
    }
    Unlisted unlisted()
    {
        Unlisted unlisted;
        unlisted.namespaces = unsignedNumber();
        unlisted.keys = unsignedNumber();
        unlisted.memoryBytes = unsignedNumber();
        return unlisted;
    }

private:
    QByteArrayView m_in;
    qsizetype m_at = 0;
    QString m_problem;
};

// The fewest bytes each record takes: its varints and length prefixes, one byte each at least.
constexpr std::uint64_t StatsBytes = 5 + 1 + keyspace::KeyTypeCount;
constexpr std::uint64_t NamespaceBytes = 1 + 1 + 1 + StatsBytes + 3;
constexpr std::uint64_t PatternBytes = 1 + StatsBytes + 1;

} // namespace

QByteArray encodeSnapshot(const Snapshot& snapshot)
{
    Encoder out;
    out.raw(Magic);
    out.raw(QByteArrayView("\x01", 1)); // SnapshotFormatVersion
    out.signedNumber(snapshot.takenAtMs);
    out.unsignedNumber(snapshot.complete ? 1 : 0);
    out.bytes(snapshot.server.address);
    out.bytes(snapshot.server.runId);
    out.bytes(snapshot.server.redisVersion);
    out.signedNumber(snapshot.server.db);
    out.signedNumber(snapshot.server.dbsize.value_or(-1));
    out.signedNumber(snapshot.server.usedMemory.value_or(-1));
    out.bytes(snapshot.delimiters);
    out.bytes(snapshot.profile);
    out.unsignedNumber(snapshot.keysScanned);
    out.unsignedNumber(std::uint64_t(std::max(0, snapshot.listedDepth)));
    out.stats(snapshot.totals);
    out.unlisted(snapshot.unlistedTopLevel);
    out.unsignedNumber(snapshot.namespaces.size());
    for (const SnapshotNamespace& entry : snapshot.namespaces) {
        out.unsignedNumber(entry.parent == SnapshotNamespace::TopLevel ? 0 : std::uint64_t(entry.parent) + 1);
        out.bytes(entry.path);
        out.bytes(entry.library);
        out.stats(entry.stats);
        out.unlisted(entry.unlisted);
    }
    out.unsignedNumber(snapshot.patterns.size());
    for (const SnapshotPattern& entry : snapshot.patterns) {
        out.bytes(entry.pattern);
        out.stats(entry.stats);
        out.bytes(entry.library);
    }
    out.unsignedNumber(snapshot.findingsByRule.size());
    for (const Snapshot::RuleCount& rule : snapshot.findingsByRule) {
        out.bytes(rule.rule);
        out.unsignedNumber(rule.findings);
    }
    out.unsignedNumber(snapshot.libraries.size());
    for (const Snapshot::LibraryTotal& library : snapshot.libraries) {
        out.bytes(library.library);
        out.unsignedNumber(library.keys);
        out.unsignedNumber(library.memoryBytes);
    }
    out.raw(QByteArrayView(&EndMark, 1));
    out.unsignedNumber(snapshot.namespaces.size() + snapshot.patterns.size());
    return gzipBytes(out.out());
}

bool looksLikeSnapshotFile(QByteArrayView bytes)
{
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::optional<Snapshot> decodeSnapshot(QByteArrayView bytes, QString* error)
{
    if (bytes.isEmpty()) {
        *error = QStringLiteral("the file is empty");
        return std::nullopt;
    }
    if (!looksLikeSnapshotFile(bytes)) {
        *error = QStringLiteral("it is neither a Keylens snapshot (a gzip stream) nor a JSON report");
        return std::nullopt;
    }
    QString problem;
    const std::optional<QByteArray> contents = gunzipBytes(bytes, MaximumContents, &problem);
    if (!contents) {
        *error = QStringLiteral("it is damaged: %1").arg(problem);
        return std::nullopt;
    }
    if (!contents->startsWith(Magic)) {
        *error = QStringLiteral("it is a gzip file but not a Keylens snapshot");
        return std::nullopt;
    }
    if (contents->size() <= Magic.size()) {
        *error = QStringLiteral("it is damaged: it ends after its magic bytes");
        return std::nullopt;
    }
    const int version = static_cast<unsigned char>(contents->at(Magic.size()));
    if (version > SnapshotFormatVersion || version == 0) {
        *error = QStringLiteral("it has format version %1, and this Keylens reads version %2 and older: a newer "
                                "Keylens wrote it")
                     .arg(version)
                     .arg(SnapshotFormatVersion);
        return std::nullopt;
    }
    Decoder in(QByteArrayView(*contents).sliced(Magic.size() + 1));
    Snapshot snapshot;
    snapshot.takenAtMs = in.signedNumber();
    const std::uint64_t flags = in.unsignedNumber();
    if (flags > 1)
        in.fail(QStringLiteral("unknown flags %1").arg(flags));
    snapshot.complete = flags & 1;
    snapshot.server.address = in.bytes();
    snapshot.server.runId = in.bytes();
    snapshot.server.redisVersion = in.bytes();
    snapshot.server.db = int(in.signedNumber());
    if (const std::int64_t dbsize = in.signedNumber(); dbsize >= 0)
        snapshot.server.dbsize = dbsize;
    if (const std::int64_t used = in.signedNumber(); used >= 0)
        snapshot.server.usedMemory = used;
    snapshot.delimiters = in.bytes();
    snapshot.profile = in.bytes();
    snapshot.keysScanned = in.unsignedNumber();
    snapshot.listedDepth = int(std::min<std::uint64_t>(in.unsignedNumber(), 1 << 20));
    snapshot.totals = in.stats();
    snapshot.unlistedTopLevel = in.unlisted();
    const std::uint64_t namespaces = in.count(NamespaceBytes);
    snapshot.namespaces.reserve(namespaces);
    for (std::uint64_t index = 0; index < namespaces && !in.failed(); ++index) {
        SnapshotNamespace entry;
        const std::uint64_t parent = in.unsignedNumber();
        if (parent > index)
            in.fail(QStringLiteral("namespace %1 names a parent after it").arg(index));
        entry.parent = parent == 0 ? SnapshotNamespace::TopLevel : std::uint32_t(parent - 1);
        entry.path = in.bytes();
        entry.library = in.bytes();
        entry.stats = in.stats();
        entry.unlisted = in.unlisted();
        snapshot.namespaces.push_back(std::move(entry));
    }
    const std::uint64_t patterns = in.count(PatternBytes);
    snapshot.patterns.reserve(patterns);
    for (std::uint64_t index = 0; index < patterns && !in.failed(); ++index) {
        SnapshotPattern entry;
        entry.pattern = in.bytes();
        entry.stats = in.stats();
        entry.library = in.bytes();
        snapshot.patterns.push_back(std::move(entry));
    }
    const std::uint64_t rules = in.count(2);
    for (std::uint64_t index = 0; index < rules && !in.failed(); ++index) {
        Snapshot::RuleCount rule;
        rule.rule = in.bytes();
        rule.findings = in.unsignedNumber();
        snapshot.findingsByRule.push_back(std::move(rule));
    }
    const std::uint64_t libraries = in.count(3);
    for (std::uint64_t index = 0; index < libraries && !in.failed(); ++index) {
        Snapshot::LibraryTotal library;
        library.library = in.bytes();
        library.keys = in.unsignedNumber();
        library.memoryBytes = in.unsignedNumber();
        snapshot.libraries.push_back(std::move(library));
    }
    if (!in.failed() && in.byte() != EndMark)
        in.fail(QStringLiteral("its end record is missing"));
    if (!in.failed() && in.unsignedNumber() != snapshot.namespaces.size() + snapshot.patterns.size())
        in.fail(QStringLiteral("its end record counts other records than it holds"));
    if (!in.failed() && !in.atEnd())
        in.fail(QStringLiteral("bytes follow its end record"));
    if (in.failed()) {
        *error = QStringLiteral("it is damaged: %1").arg(in.problem());
        return std::nullopt;
    }
    return snapshot;
}

QString writeSnapshotFile(const QString& path, const Snapshot& snapshot)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write the snapshot %1: %2").arg(path, file.errorString());
    const QByteArray bytes = encodeSnapshot(snapshot);
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QStringLiteral("cannot write the snapshot %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace keylens::history
