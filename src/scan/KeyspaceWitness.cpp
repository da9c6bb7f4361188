#include "scan/KeyspaceWitness.h"

#include "keyspace/Units.h"
#include "redis/Connection.h"

namespace keylens::scan {

void KeyspaceWitness::keyStored(QByteArrayView key, bool persistent)
{
    if (!persistent)
        return;
    ++m_sample.seen;
    // Reservoir sampling: every persistent key ends up in the sample with the same probability.
    if (m_sample.keys.size() < SampleSize) {
        m_sample.keys.push_back(key.toByteArray());
        return;
    }
    const std::uint64_t slot = std::uniform_int_distribution<std::uint64_t>(0, m_sample.seen - 1)(m_random);
    if (slot < SampleSize)
        m_sample.keys[std::size_t(slot)] = key.toByteArray();
}

void KeyspaceWitness::serverReplaced()
{
    if (!m_beforeRestart) // the first dataset is the one a report could wrongly mix in
        m_beforeRestart = std::move(m_sample);
    m_sample = Sample();
}

bool KeyspaceWitness::Verdict::mostlyGone() const
{
    return answered >= SmallestSample && double(gone) >= GoneShare * double(answered);
}

std::optional<redis::Error> KeyspaceWitness::check(redis::Connection& connection, std::uint64_t stored) const
{
    if (stored == 0)
        return std::nullopt;
    const std::vector<QByteArray> none;
    const std::vector<QByteArray>& before = m_beforeRestart ? m_beforeRestart->keys : none;
    connection.append({"DBSIZE"});
    for (const std::vector<QByteArray>* keys : {&m_sample.keys, &before}) {
        for (const QByteArray& key : *keys)
            connection.append({"EXISTS", key});
    }
    redis::Result<redis::Reply> dbsize = connection.read();
    if (!dbsize)
        return std::nullopt; // the connection failed at the very end: the scan's own figures stand
    Verdict verdicts[2];
    for (int which = 0; which < 2; ++which) {
        for (std::size_t i = 0; i < (which == 0 ? m_sample.keys : before).size(); ++i) {
            redis::Result<redis::Reply> exists = connection.read();
            if (!exists)
                return std::nullopt;
            if (exists->isInteger()) {
                ++verdicts[which].answered;
                verdicts[which].gone += exists->integer() == 0 ? 1 : 0;
            }
        }
    }
    const QString scanAgain = QStringLiteral("the report shows keys that are gone; scan again");
    const QString storedText = QString::fromUtf8(keyspace::formatCount(stored));
    const QString dbsizeText = dbsize->isInteger()
                                   ? QString::fromUtf8(keyspace::formatCount(std::uint64_t(dbsize->integer())))
                                   : QStringLiteral("unknown");
    if (dbsize->isInteger() && dbsize->integer() == 0)
        return redis::Error{redis::ErrorKind::Server,
                            QStringLiteral("the keyspace was emptied during the scan (a FLUSHALL or FLUSHDB, or a "
                                           "server that restarted empty): DBSIZE is 0 now, and %1 keys were stored; %2")
                                .arg(storedText, scanAgain)};
    // Which sample is mostly gone, in words: the keys stored before a restart, or all of them.
    const auto replaced = [&](const Verdict& verdict, const QString& what, const QString& sampled) {
        return redis::Error{redis::ErrorKind::Server,
                            QStringLiteral("%1: %2 of %3 keys without a TTL sampled %4 are gone, and DBSIZE is %5 now "
                                           "against %6 keys stored; %7")
                                .arg(what)
                                .arg(verdict.gone)
                                .arg(verdict.answered)
                                .arg(sampled, dbsizeText, storedText, scanAgain)};
    };
    if (verdicts[1].mostlyGone())
        return replaced(verdicts[1], QStringLiteral("the server restarted with another keyspace during the scan"),
                        QStringLiteral("before the restart"));
    if (verdicts[0].mostlyGone())
        return replaced(verdicts[0],
                        QStringLiteral("the keyspace was replaced during the scan (a flush, a restart with other data, "
                                       "or a mass delete)"),
                        QStringLiteral("from those stored"));
    return std::nullopt;
}

} // namespace keylens::scan
