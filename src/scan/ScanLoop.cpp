#include "scan/ScanLoop.h"

#include "keyspace/MemoryEstimate.h"
#include "keyspace/Units.h"
#include "redis/Connection.h"
#include "scan/ClusterScan.h"
#include "scan/KeyAnswers.h"
#include "scan/KeyspaceWitness.h"
#include "scan/LatencyGuard.h"
#include "scan/MemoryChecks.h"

#include <QDateTime>
#include <QHash>
#include <QRandomGenerator>

#include <chrono>
#include <deque>
#include <set>

namespace keylens::scan {

namespace {

// "1 key", "2,628 keys": as the reports count.
QString keysText(std::uint64_t count)
{
    return QString::fromUtf8(keyspace::formatCounted(count, "key"));
}

using Clock = std::chrono::steady_clock;
using keyspace::KeyInfo;
using keyspace::KeyType;
using redis::Connection;
using redis::Error;
using redis::ErrorKind;
using redis::Reply;
using redis::ReplyView;
using redis::Result;

// Time spent scanning, with pauses left out, so keys/s and the ETA mean something after a pause.
class ActiveClock
{
public:
    ActiveClock()
        : m_start(Clock::now())
    {}
    void pauseStarted() { m_pausedAt = Clock::now(); }
    void pauseEnded() { m_pausedTotal += Clock::now() - m_pausedAt; }
    std::int64_t elapsedMs() const
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_start - m_pausedTotal).count();
    }

private:
    Clock::time_point m_start;
    Clock::time_point m_pausedAt;
    Clock::duration m_pausedTotal{};
};

class ScanRun
{
public:
    ScanRun(std::uint64_t jobId, const ScanOptions& options, ScanControl& control, ScanSink& sink)
        : m_options(options)
        , m_control(control)
        , m_sink(sink)
    {
        m_summary.jobId = jobId;
        m_summary.memoryMeasured = options.measureMemory;
        m_summary.exactMemory = options.measureMemory && options.exactMemory;
        m_summary.exactMemoryCap = m_summary.exactMemory ? options.exactMemoryCap : 0;
        m_summary.coldAfterSeconds = options.coldAfterSeconds;
        m_summary.speed = options.speed;
        m_summary.maxKeysPerSecond = options.maxKeysPerSecond;
    }

    ScanSummary run();

private:
    // A request in flight: a SCAN, or the TYPE/PTTL/MEMORY questions about the keys of an earlier SCAN
    // reply (which we keep, so the key bytes are not copied until they go into a batch).
    // Which questions a batch asked: a command denied for the whole connection stops being asked, so
    // batches already in flight and later ones differ.
    struct Questions
    {
        bool type = true;
        bool pttl = true;
        bool memory = true;
        AccessQuestion access = AccessQuestion::None;
        int count() const { return int(type) + int(pttl) + int(memory) + int(access != AccessQuestion::None); }
    };
    // Questions are about keys [first, last) of the SCAN reply: all of them at full speed, a few at a time gently.
    struct Request
    {
        bool isScan = true;
        std::shared_ptr<Reply> scanReply;
        Questions asked;
        std::size_t first = 0;
        std::size_t last = 0;
        Clock::time_point sentAt;
        std::size_t commands = 1;
        // The cursor this SCAN was sent with, or the one whose SCAN returned these keys: where to resume when the
        // request is lost with its connection.
        QByteArray cursor;
        // Which SCAN reply the keys came in (ScanSummary::scanCalls then): the oldest in flight is where a lost
        // connection resumes, and a batch's memory checks are answered after younger batches' questions.
        std::uint64_t scanNumber = 0;
        // A batch's memory checks (MEMORY USAGE … SAMPLES): the answers to its questions, waiting for theirs.
        std::shared_ptr<std::vector<KeyAnswers>> checked;
    };
    static constexpr std::size_t GentleKeysPerRound = 32;
    bool gentle() const { return m_options.speed == ScanSpeed::Gentle; }

    void probeMemory(Connection& connection);
    void probeAccess(Connection& connection);
    // An error answer to OBJECT IDLETIME or FREQ: the other question after a policy change, else none from now on.
    void accessQuestionFailed(const Reply& reply, AccessQuestion asked);
    void sendScan(Connection& connection, const QByteArray& cursor);
    void sendQuestions(Connection& connection, const std::shared_ptr<Reply>& scanReply, std::size_t first,
                       std::size_t last);
    // Gentle: one round at a time, questions a few keys at a time.
    void sendNextGentleRound(Connection& connection);
    void restAfterGentleRound(const Request& request);
    std::optional<Error> readScanReply(Connection& connection, const Request& request);
    // The scan proper, on one connection: nothing when it ended (complete or cancelled), the failure otherwise.
    std::optional<Error> scanOn(Connection& connection);
    // Connecting again after a transient failure, waiting longer each time; nullptr when the scan gives up (the
    // summary says why) or is cancelled.
    std::unique_ptr<Connection> reconnect(Error failure);
    // Where a scan that lost its connection goes on: the cursor of the oldest keys not yet delivered.
    QByteArray resumeCursor() const;
    // On the new connection: resume at `cursor`, or start over when the server restarted meanwhile.
    // False when the server that answered is not the one scanned (a cluster node's port taken by another server).
    bool resumeOn(Connection& connection, const QByteArray& cursor);
    // The answering server's CLUSTER MYID: empty when it is no cluster node, nothing when it may not be asked.
    std::optional<QByteArray> clusterNodeId(Connection& connection);
    // A cluster node's address answered by the node the topology names there (or one that may not be asked).
    bool isExpectedNode(Connection& connection);
    std::optional<Error> readAnswers(Connection& connection, const Request& request);
    // Asks again about the keys whose default MEMORY USAGE may have been sampled (MemorySampling.h); false when none.
    bool sendMemoryChecks(Connection& connection, const Request& request, std::vector<KeyAnswers>& answers);
    // A batch's answers, all in: its keys into a batch for the sink.
    void deliver(const Request& request, std::vector<KeyAnswers>& answers);
    void throttle(std::size_t keys);
    void holdWhilePaused();
    void reportProgress(bool force);
    void notice(const QString& text);
    // An error reply to a question about a key: a denial of the whole command stops it being asked.
    void questionFailed(const Reply& reply, QByteArrayView command, bool* stillAsked, const QString& consequence);
    // A read that a cancel interrupted is the cancel, not a failure.
    void fail(Error error)
    {
        if (error.kind == redis::ErrorKind::Cancelled)
            m_summary.cancelled = true;
        else
            m_summary.error = std::move(error);
    }

    const ScanOptions& m_options;
    ScanControl& m_control;
    ScanSink& m_sink;
    ScanSummary m_summary;
    ActiveClock m_clock;
    std::deque<Request> m_inFlight;
    std::optional<QByteArray> m_nextCursor = QByteArray("0");
    std::shared_ptr<Reply> m_keysToInspect;
    QByteArray m_keysToInspectCursor;
    std::uint64_t m_keysToInspectNumber = 0;
    QString m_trouble; // for the progress: why the scan is waiting
    int m_attempt = 0; // attempts to connect again since the scan last got an answer
    // A server that says nothing at all (stopped with SIGSTOP, swapped out, a dead cluster node whose port the kernel
    // still accepts on) is given up on this long after its first timeout: 55 s of silence in all with the
    // default 30 s --command-timeout, instead of a timeout per reconnect attempt (297 s; 185 s and counting on a
    // cluster). Unset while it answers.
    std::optional<Clock::time_point> m_silentSince; // the first timeout since the last answer
    std::size_t m_nextKeyToInspect = 0;             // gentle: where the next round of questions starts
    LatencyGuard m_guard;
    KeyspaceWitness m_witness; // whether the keys stored are still the server's when the scan ends
    bool m_cursorDone = false;
    bool m_accessSwitched = false; // the access question switched once after a policy change
    Questions m_ask;               // what the next batch asks
    // Sampled mode: a key's memory is asked when its seeded hash falls below the threshold, so that sending the
    // questions and reading the answers agree without remembering which keys were picked.
    std::optional<std::uint64_t> m_sampleThreshold;
    std::size_t m_sampleSeed = 0;
    bool measures(QByteArrayView key) const
    {
        return !m_sampleThreshold ||
               std::uint64_t(qHashBits(key.data(), std::size_t(key.size()), m_sampleSeed)) < *m_sampleThreshold;
    }
    void chooseSample();
    std::uint64_t m_keysQuestioned = 0;
    std::int64_t m_lastProgressMs = -1000;
    std::set<QString> m_noticesSeen;
};

void ScanRun::notice(const QString& text)
{
    if (m_noticesSeen.insert(text).second)
        m_summary.notices << text;
}

void ScanRun::questionFailed(const Reply& reply, QByteArrayView command, bool* stillAsked, const QString& consequence)
{
    const redis::Denial denial = redis::denialOf(reply.bytes(), command);
    if (denial == redis::Denial::Command) {
        if (*stillAsked) {
            *stillAsked = false; // found out once; the rest of the scan does not ask again
            notice(redis::errorFromReply(reply.bytes(), command).message + QStringLiteral("; ") + consequence);
        }
        return;
    }
    if (denial == redis::Denial::Key) {
        notice(QStringLiteral("%1 is denied for some keys by this user's ACL key patterns (%2); their fields "
                              "stay unknown")
                   .arg(QString::fromUtf8(command), QString::fromUtf8(reply.bytes())));
        return;
    }
    notice(redis::errorFromReply(reply.bytes(), command).message);
}

void ScanRun::probeMemory(Connection& connection)
{
    m_ask.memory = m_options.measureMemory;
    if (!m_ask.memory) {
        notice(QStringLiteral("memory was not measured (--no-memory)"));
        return;
    }
    // Any key name will do: a missing key answers nil, a denied or disabled command answers an error.
    // A user whose ACL key patterns exclude the probe key is denied the key, not the command: memory is
    // then still measured where allowed, and the keys it is denied for are counted.
    Result<Reply> reply = connection.command({"MEMORY", "USAGE", "keylens:probe"});
    // A cluster node that does not own the probe key's slot redirects it (MOVED): the command exists there too.
    const std::optional<Reply> answer = reply ? std::optional<Reply>(std::move(*reply)) : std::nullopt;
    if (answer && answer->isError() && !isRedirect(answer) &&
        redis::denialOf(answer->bytes(), "MEMORY USAGE") != redis::Denial::Key) {
        m_ask.memory = false;
        m_summary.memoryMeasured = false;
        notice(redis::errorFromReply(answer->bytes(), "MEMORY USAGE").message +
               QStringLiteral("; the scan goes on without memory figures"));
    }
}

// The LFU policies keep a counter where the others keep the time of the last access.
AccessQuestion accessQuestionFor(QByteArrayView maxmemoryPolicy)
{
    return maxmemoryPolicy.endsWith("-lfu") ? AccessQuestion::Frequency : AccessQuestion::IdleTime;
}

// As errors name it: "OBJECT IDLETIME".
QByteArrayView accessCommandName(AccessQuestion question)
{
    return question == AccessQuestion::Frequency ? "OBJECT FREQ" : "OBJECT IDLETIME";
}

void ScanRun::probeAccess(Connection& connection)
{
    m_ask.access = AccessQuestion::None;
    if (!m_options.measureAccess)
        return; // opt-in (ScanOptions::measureAccess): the report's access is null, which says it
    const AccessQuestion question = accessQuestionFor(m_summary.server.maxmemoryPolicy);
    const QByteArrayView subcommand = accessSubcommand(question);
    // As probeMemory: a missing key answers nil (before the policy is looked at), a denied command an error.
    Result<Reply> reply = connection.command({"OBJECT", subcommand, "keylens:probe"});
    const std::optional<Reply> answer = reply ? std::optional<Reply>(std::move(*reply)) : std::nullopt;
    if (answer && answer->isError() && !isRedirect(answer) &&
        redis::denialOf(answer->bytes(), "OBJECT") != redis::Denial::Key) {
        notice(redis::errorFromReply(answer->bytes(), accessCommandName(question)).message +
               QStringLiteral("; idle times are not measured"));
        return;
    }
    m_ask.access = question;
    if (question == AccessQuestion::Frequency)
        notice(QStringLiteral("the maxmemory-policy is %1: the server keeps access counters (OBJECT FREQ), not idle "
                              "times, so cold memory is not measured")
                   .arg(QString::fromUtf8(m_summary.server.maxmemoryPolicy)));
}

void ScanRun::accessQuestionFailed(const Reply& reply, AccessQuestion asked)
{
    if (redis::denialOf(reply.bytes(), "OBJECT") == redis::Denial::Key) {
        questionFailed(reply, accessCommandName(asked), nullptr, {}); // a key's denial: notes it, asks on
        return;
    }
    if (m_ask.access != asked)
        return; // already switched or dropped on an earlier answer of the same round
    // "An LFU maxmemory policy is (not) selected": the policy changed since the scan began; the other question is
    // right from now on. Once only: a server that refuses both has no access figures to give.
    const bool policyMismatch = reply.bytes().contains("LFU maxmemory policy");
    if (policyMismatch && !m_accessSwitched) {
        m_accessSwitched = true;
        m_ask.access = asked == AccessQuestion::IdleTime ? AccessQuestion::Frequency : AccessQuestion::IdleTime;
        notice(QStringLiteral("the server's maxmemory-policy changed during the scan: it asks OBJECT %1 from now on, "
                              "and keys asked before the change have no access figure")
                   .arg(QString::fromLatin1(accessSubcommand(m_ask.access))));
        return;
    }
    m_ask.access = AccessQuestion::None;
    notice(redis::errorFromReply(reply.bytes(), accessCommandName(asked)).message +
           QStringLiteral("; idle times are not measured for the rest of the scan"));
}

void ScanRun::chooseSample()
{
    if (m_options.sampleSize == 0 || !m_ask.memory)
        return;
    const qint64 dbsize = m_summary.server.dbsize.value_or(0);
    if (dbsize <= 0 && !m_options.sampleProbability) {
        notice(QStringLiteral("--sample: DBSIZE is not known, so every key's memory was measured"));
        return;
    }
    const double probability =
        m_options.sampleProbability.value_or(std::min(1.0, double(m_options.sampleSize) / double(dbsize)));
    if (probability >= 0.999999)
        return; // no fewer keys than the sample: every key is measured, exactly
    m_summary.sampleProbability = probability;
    m_sampleThreshold = std::uint64_t(probability * 18446744073709551615.0);
    m_sampleSeed = std::size_t(QRandomGenerator::global()->generate64());
}

void ScanRun::sendScan(Connection& connection, const QByteArray& cursor)
{
    const QByteArray count = QByteArray::number(m_options.count > 0 ? m_options.count : gentle() ? 100 : 1000);
    std::vector<QByteArrayView> arguments = {"SCAN", cursor, "COUNT", count};
    if (!m_options.match.isEmpty()) {
        arguments.push_back("MATCH");
        arguments.push_back(m_options.match);
    }
    if (!m_options.type.isEmpty()) {
        arguments.push_back("TYPE");
        arguments.push_back(m_options.type);
    }
    connection.append(arguments);
    Request request;
    request.sentAt = Clock::now();
    request.cursor = cursor;
    m_inFlight.push_back(std::move(request));
}

void ScanRun::sendQuestions(Connection& connection, const std::shared_ptr<Reply>& scanReply, std::size_t first,
                            std::size_t last)
{
    const ReplyView keys = scanReply->at(1);
    throttle(last - first);
    for (std::size_t i = first; i < last; ++i) {
        const QByteArrayView key = keys.at(i).bytes();
        if (m_ask.type)
            connection.append({"TYPE", key});
        if (m_ask.pttl)
            connection.append({"PTTL", key});
        if (m_ask.memory && measures(key))
            connection.append({"MEMORY", "USAGE", key});
        if (m_ask.access != AccessQuestion::None)
            connection.append({"OBJECT", accessSubcommand(m_ask.access), key});
    }
    m_keysQuestioned += last - first;
    Request request;
    request.isScan = false;
    request.scanReply = scanReply;
    request.asked = m_ask;
    request.first = first;
    request.last = last;
    request.sentAt = Clock::now();
    request.commands = (last - first) * std::size_t(m_ask.count());
    request.cursor = m_keysToInspectCursor;
    request.scanNumber = m_keysToInspectNumber;
    m_inFlight.push_back(std::move(request));
}

void ScanRun::sendNextGentleRound(Connection& connection)
{
    if (m_keysToInspect) {
        const std::size_t size = m_keysToInspect->at(1).size();
        const std::size_t last = std::min(size, m_nextKeyToInspect + GentleKeysPerRound);
        sendQuestions(connection, m_keysToInspect, m_nextKeyToInspect, last);
        m_nextKeyToInspect = last;
        if (last == size) {
            m_keysToInspect.reset();
            m_nextKeyToInspect = 0;
        }
    } else if (m_nextCursor) {
        sendScan(connection, *m_nextCursor);
        m_nextCursor.reset();
    }
}

void ScanRun::restAfterGentleRound(const Request& request)
{
    const auto elapsed = std::chrono::duration_cast<LatencyGuard::Duration>(Clock::now() - request.sentAt);
    // Only rounds of questions are judged: a SCAN is one command that walks a hundred buckets, so its time per
    // command is not comparable with theirs. It rests as long as it took, like any round.
    const LatencyGuard::Duration rest =
        request.isScan ? elapsed + m_guard.backoff() : m_guard.afterRound(elapsed, request.commands);
    if (m_guard.backingOff())
        ++m_summary.backoffs;
    // Pauses and cancels still take effect at once: sleepUntil wakes for both.
    m_control.sleepUntil(Clock::now() + rest);
}

void ScanRun::throttle(std::size_t keys)
{
    if (m_options.maxKeysPerSecond <= 0)
        return;
    // The moment these keys are due at the requested rate, measured on the scan's active clock. Sleep in
    // short slices, so a pause requested meanwhile holds the scan within 100 ms even at a low rate.
    const double dueMs = static_cast<double>(m_keysQuestioned + keys) * 1000.0 / m_options.maxKeysPerSecond;
    while (!m_control.isCancelled()) {
        if (m_control.isPaused())
            holdWhilePaused();
        const std::int64_t wait = static_cast<std::int64_t>(dueMs) - m_clock.elapsedMs();
        if (wait <= 0)
            return;
        m_control.sleepUntil(Clock::now() + std::chrono::milliseconds(std::min<std::int64_t>(wait, 50)));
    }
}

void ScanRun::holdWhilePaused()
{
    reportProgress(true);
    m_clock.pauseStarted();
    m_control.waitWhilePaused(); // a cancel ends the wait too; callers check for it
    m_clock.pauseEnded();
}

std::optional<Error> ScanRun::readScanReply(Connection& connection, const Request& request)
{
    Result<Reply> reply = connection.read();
    if (!reply)
        return reply.error();
    if (reply->isError())
        return redis::errorFromReply(reply->bytes(), "SCAN");
    if (reply->size() != 2 || !reply->at(0).isString() || !reply->at(1).isArray())
        return Error{ErrorKind::Protocol, QStringLiteral("SCAN answered with something that is not a cursor and keys")};
    const QByteArrayView cursor = reply->at(0).bytes();
    const std::size_t count = reply->at(1).size();
    m_summary.keysSeen += count;
    ++m_summary.scanCalls;
    if (cursor == "0")
        m_cursorDone = true;
    else
        m_nextCursor = cursor.toByteArray();
    // An empty batch is an answer only when no question waits behind it: a cluster marked failed answers SCAN, and
    // when an empty batch came between a batch and its CLUSTERDOWN answers, every retry reset the budget (the scan
    // went on for as long as the cluster stayed down).
    const bool questionsWaiting = m_keysToInspect || std::any_of(m_inFlight.begin(), m_inFlight.end(),
                                                                 [](const Request& r) { return !r.isScan; });
    if (count > 0) {
        m_keysToInspect = std::make_shared<Reply>(std::move(*reply));
        m_keysToInspectCursor = request.cursor;
        m_keysToInspectNumber = m_summary.scanCalls;
    } else if (!questionsWaiting) {
        m_attempt = 0;
        m_silentSince.reset();
    }
    return std::nullopt;
}

std::optional<Error> ScanRun::readAnswers(Connection& connection, const Request& request)
{
    if (request.checked) {
        if (std::optional<Error> error = readMemoryChecks(connection, *request.checked))
            return error;
        deliver(request, *request.checked);
        return std::nullopt;
    }
    const ReplyView keys = request.scanReply->at(1);
    const Questions& asked = request.asked;
    std::vector<KeyAnswers> answers(request.last - request.first);
    const auto readIf = [&](bool wasAsked) -> Result<std::optional<Reply>> {
        if (!wasAsked)
            return std::optional<Reply>();
        Result<Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        return std::optional<Reply>(std::move(*reply));
    };
    for (std::size_t i = request.first; i < request.last; ++i) {
        KeyAnswers& key = answers[i - request.first];
        key.accessAsked = asked.access;
        for (const auto& [answer, wasAsked] : {std::pair{&key.type, asked.type}, std::pair{&key.pttl, asked.pttl},
                                               std::pair{&key.memory, asked.memory && measures(keys.at(i).bytes())},
                                               std::pair{&key.access, asked.access != AccessQuestion::None}}) {
            Result<std::optional<Reply>> read = readIf(wasAsked);
            if (!read)
                return read.error();
            *answer = std::move(*read);
        }
        // A server that is busy (a long script), loading or cut off from its master answers every question so: the
        // batch is asked again once it recovers, not stored as unknowns.
        for (const auto& [answer, command] :
             {std::pair{&key.type, "TYPE"}, std::pair{&key.pttl, "PTTL"}, std::pair{&key.memory, "MEMORY USAGE"},
              std::pair{&key.access, "OBJECT"}}) {
            if (*answer && (*answer)->isError()) {
                const Error error = redis::errorFromReply((*answer)->bytes(), command);
                if (error.isTransient())
                    return error;
            }
        }
    }
    if (!sendMemoryChecks(connection, request, answers))
        deliver(request, answers);
    return std::nullopt;
}

bool ScanRun::sendMemoryChecks(Connection& connection, const Request& request, std::vector<KeyAnswers>& answers)
{
    const ReplyView keys = request.scanReply->at(1);
    const std::size_t checks = appendMemoryChecks(
        connection, answers, [&](std::size_t i) { return keys.at(request.first + i).bytes(); },
        m_options.exactMemory ? m_options.exactMemoryCap : 0);
    if (checks == 0)
        return false;
    m_summary.keysMemoryChecked += checks;
    // Behind whatever is in flight already: the pipeline goes on meanwhile, and the batch waits for these answers.
    Request check = request;
    check.sentAt = Clock::now();
    check.commands = checks;
    check.checked = std::make_shared<std::vector<KeyAnswers>>(std::move(answers));
    m_inFlight.push_back(std::move(check));
    return true;
}

void ScanRun::deliver(const Request& request, std::vector<KeyAnswers>& answers)
{
    const ReplyView keys = request.scanReply->at(1);
    KeyBatch batch;
    batch.jobId = m_summary.jobId;
    batch.entries.reserve(request.last - request.first);
    const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
    std::vector<QByteArray> moved;
    for (std::size_t i = request.first; i < request.last; ++i) {
        const KeyAnswers& answer = answers[i - request.first];
        const auto& [type, pttl, memory, access, accessAsked, memoryCheck, checkAsked] = answer;
        // A cluster node whose slot moved away mid-scan redirects every question about the key: it is not here.
        if (isRedirect(type) || isRedirect(pttl) || isRedirect(memory) || isRedirect(access) ||
            isRedirect(memoryCheck)) {
            moved.push_back(keys.at(i).bytes().toByteArray());
            continue;
        }
        if (type && type->isError())
            questionFailed(*type, "TYPE", &m_ask.type, QStringLiteral("types are not known"));
        if (pttl && pttl->isError())
            questionFailed(*pttl, "PTTL", &m_ask.pttl, QStringLiteral("TTLs are not measured"));
        if (memory && memory->isError())
            questionFailed(*memory, "MEMORY USAGE", &m_ask.memory,
                           QStringLiteral("the scan goes on without memory figures"));
        if (access && access->isError())
            accessQuestionFailed(*access, accessAsked);
        if (memoryCheck && memoryCheck->isError()) {
            ++m_summary.memorySamplingUnknown;
            notice(redis::errorFromReply(memoryCheck->bytes(), "MEMORY USAGE").message +
                   QStringLiteral(" (asked with SAMPLES)"));
        }
        KeyInfo info;
        const bool vanished = !keyFromAnswers(answer, now, &info);
        if (vanished) {
            ++batch.vanished;
            continue;
        }
        if (checkAsked == MemoryCheck::Whole && memoryCheck && memoryCheck->isInteger() &&
            memory->integer() != memoryCheck->integer()) {
            ++m_summary.keysMemoryCorrected;
            m_summary.memoryCorrectionBytes += memoryCheck->integer() - memory->integer();
        }
        if (!info.access.isKnown())
            ++m_summary.accessNotMeasured;
        if (info.type == KeyType::Unknown)
            ++m_summary.keysNotInspected;
        if (!info.memoryMeasured)
            ++m_summary.memoryNotMeasured;
        batch.add(keys.at(i).bytes(), info);
        m_witness.keyStored(keys.at(i).bytes(), info.expiresAtMs == keyspace::NoExpiry);
    }
    m_summary.vanished += batch.vanished;
    m_sink.batch(std::move(batch));
    if (!moved.empty()) {
        m_summary.movedKeys += moved.size();
        m_sink.movedKeys(std::move(moved));
    }
}

void ScanRun::reportProgress(bool force)
{
    const std::int64_t elapsed = m_clock.elapsedMs();
    if (!force && elapsed - m_lastProgressMs < 100)
        return;
    m_lastProgressMs = elapsed;
    ScanProgress progress;
    progress.jobId = m_summary.jobId;
    progress.keysSeen = m_summary.keysSeen;
    progress.vanished = m_summary.vanished;
    progress.dbsize = m_summary.server.dbsize.value_or(-1);
    progress.elapsedMs = elapsed;
    progress.paused = m_control.isPaused();
    progress.speed = m_options.speed;
    progress.backingOff = m_guard.backingOff();
    progress.trouble = m_trouble;
    progress.keysPerSecond =
        elapsed > 0 ? static_cast<double>(m_summary.keysSeen) * 1000.0 / static_cast<double>(elapsed) : 0;
    if (progress.dbsize >= 0 && progress.keysPerSecond > 0 && !m_cursorDone) {
        const double remaining =
            std::max<double>(0, static_cast<double>(progress.dbsize) - static_cast<double>(progress.keysSeen));
        progress.etaMs = static_cast<std::int64_t>(remaining * 1000.0 / progress.keysPerSecond);
    } else if (m_cursorDone) {
        progress.etaMs = 0;
    }
    m_sink.progress(progress);
}

ScanSummary ScanRun::run()
{
    m_summary.server.address = m_options.connection.address();
    m_summary.server.db = m_options.connection.db;
    Result<std::unique_ptr<Connection>> opened = Connection::open(m_options.connection, m_control.cancelFlag());
    if (!opened) {
        fail(opened.error());
        return m_summary;
    }
    Connection& connection = **opened;
    m_summary.server = redis::queryServerInfo(connection);
    if (!isExpectedNode(connection))
        return m_summary;
    for (const QString& text : std::as_const(m_summary.server.notices))
        notice(text);
    if (!m_options.clusterNode && m_summary.server.clusterMode) {
        Result<redis::ClusterTopology> topology = redis::discoverCluster(connection);
        if (topology)
            return runClusterScan(m_summary.jobId, m_options, std::move(*topology), m_summary.server, m_control,
                                  m_sink);
        // A user allowed to read keys but not to ask about the cluster (an ACL without CLUSTER): this node's keys
        // are worth more than none, said so, and the reads follow MOVED from here.
        if (!topology.error().isDenied()) {
            fail(topology.error());
            return m_summary;
        }
        notice(QStringLiteral("the server is a cluster node, but %1: only this node's keys were scanned, not the "
                              "other shards'")
                   .arg(topology.error().message));
    }
    if ((m_options.cluster || m_options.fromReplicas) && !m_options.clusterNode && !m_summary.server.clusterMode)
        notice(QStringLiteral("the server is not in cluster mode (%1): it was scanned as a single server")
                   .arg(m_options.fromReplicas ? QStringLiteral("--from-replicas") : QStringLiteral("-c")));
    m_sink.serverInfo(m_summary.server);
    probeMemory(connection);
    probeAccess(connection);
    chooseSample();
    m_clock = ActiveClock();

    std::unique_ptr<Connection> current = std::move(*opened);
    while (std::optional<Error> failure = scanOn(*current)) {
        if (failure->kind == ErrorKind::Cancelled || m_control.isCancelled()) {
            m_summary.cancelled = true;
            break;
        }
        if (!failure->isTransient() || m_options.reconnectAttempts <= 0) {
            fail(*failure);
            break;
        }
        const QByteArray cursor = resumeCursor();
        current = reconnect(*failure);
        if (!current)
            break;
        if (!resumeOn(*current, cursor))
            break;
    }
    m_summary.durationMs = m_clock.elapsedMs();
    if (m_summary.complete && current && !m_summary.error) {
        if (std::optional<Error> replaced =
                m_witness.check(*current, m_summary.keysSeen - std::min(m_summary.vanished, m_summary.keysSeen))) {
            m_summary.complete = false;
            m_summary.error = std::move(replaced);
        }
    }
    if (m_summary.reconnects > 0 && !m_summary.serverRestarted)
        notice(QStringLiteral("the scan lost its connection or found the server busy, connected again and resumed "
                              "where it was (%1 times); keys asked about twice were stored once")
                   .arg(m_summary.reconnects));
    if (!m_ask.memory)
        m_summary.memoryMeasured = false;
    if (m_summary.memorySamplingUnknown > 0)
        notice(QStringLiteral("whether the server sampled the memory of %1 is not known: MEMORY USAGE with "
                              "SAMPLES failed for them")
                   .arg(keysText(m_summary.memorySamplingUnknown)));
    m_summary.access = m_ask.access;
    if (m_ask.access != AccessQuestion::None && m_summary.accessNotMeasured > 0)
        notice(QStringLiteral("the idle time of %1 could not be measured; idle figures leave them out")
                   .arg(keysText(m_summary.accessNotMeasured)));
    if (m_summary.sampleProbability)
        notice(QStringLiteral("memory was measured on a uniform random sample of %1 (each with probability %2); "
                              "namespace memory is estimated from it, ± %3 standard errors")
                   .arg(keysText(m_summary.keysSeen - m_summary.memoryNotMeasured))
                   .arg(*m_summary.sampleProbability, 0, 'g', 3)
                   .arg(keyspace::BoundInStandardErrors));
    else if (m_ask.memory && m_summary.memoryNotMeasured > 0)
        notice(QStringLiteral("the memory of %1 could not be measured; memory sums leave them out")
                   .arg(keysText(m_summary.memoryNotMeasured)));
    reportProgress(true);
    return m_summary;
}

std::optional<Error> ScanRun::scanOn(Connection& connection)
{
    for (;;) {
        if (m_control.isCancelled()) {
            m_summary.cancelled = true;
            return std::nullopt;
        }
        if (m_control.isPaused()) {
            // Nothing new goes out; what is in flight is read below.
        } else if (gentle()) {
            if (m_inFlight.empty())
                sendNextGentleRound(connection);
        } else {
            // SCAN n+1 goes out before batch n's questions, and both before batch n-1's answers are read.
            if (m_nextCursor) {
                sendScan(connection, *m_nextCursor);
                m_nextCursor.reset();
            }
            if (m_keysToInspect) {
                sendQuestions(connection, m_keysToInspect, 0, m_keysToInspect->at(1).size());
                m_keysToInspect.reset();
            }
        }
        if (m_inFlight.empty()) {
            if (m_cursorDone && !m_keysToInspect) {
                m_summary.complete = true;
                return std::nullopt;
            }
            // Paused with nothing in flight: wait here until resumed or cancelled.
            holdWhilePaused();
            continue;
        }
        // Read before it leaves the queue: a request lost with the connection is where the scan resumes.
        const Request& request = m_inFlight.front();
        if (std::optional<Error> error =
                request.isScan ? readScanReply(connection, request) : readAnswers(connection, request))
            return error;
        const Request done = std::move(m_inFlight.front());
        m_inFlight.pop_front();
        // The reconnect budget is spent until keys are answered again, not merely listed: a cluster marked failed
        // serves SCAN and answers every question about a key CLUSTERDOWN, and resetting on SCAN retried it forever.
        // (A SCAN that lists no keys has no questions to fail: readScanReply resets the budget for it.)
        if (!done.isScan) {
            m_attempt = 0;
            m_silentSince.reset();
        }
        if (gentle())
            restAfterGentleRound(done);
        reportProgress(false);
    }
}

QByteArray ScanRun::resumeCursor() const
{
    // Oldest first: keys whose answers were lost (a SCAN sent in the same round may be ahead of them in the queue,
    // but it continues from where their SCAN ended), keys not yet asked about, the SCAN that was lost, the next one.
    // A batch waiting for its memory checks is behind younger batches' questions: the oldest is by SCAN reply.
    const Request* oldest = nullptr;
    for (const Request& request : m_inFlight) {
        if (!request.isScan && (!oldest || request.scanNumber < oldest->scanNumber))
            oldest = &request;
    }
    if (oldest)
        return oldest->cursor;
    if (m_keysToInspect)
        return m_keysToInspectCursor;
    if (!m_inFlight.empty())
        return m_inFlight.front().cursor;
    return m_nextCursor.value_or(QByteArray("0"));
}

std::unique_ptr<Connection> ScanRun::reconnect(Error failure)
{
    // Attempts count until the scan gets an answer again: a server that accepts the connection and then answers
    // every command BUSY uses them up as surely as one that refuses it.
    const int attempts = m_options.reconnectAttempts;
    // The first timeout came a --command-timeout after the server's last byte; it is given 55 s in all.
    const std::chrono::milliseconds commandTimeout(m_options.connection.commandTimeoutMs);
    const auto silentUntil = [&] {
        return *m_silentSince +
               std::max(std::chrono::milliseconds(55'000) - commandTimeout, std::chrono::milliseconds(5'000));
    };
    const auto silence = [&] {
        return commandTimeout + std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - *m_silentSince);
    };
    while (++m_attempt <= attempts) {
        const int attempt = m_attempt;
        if (failure.kind == ErrorKind::Timeout && !m_silentSince)
            m_silentSince = Clock::now();
        if (m_silentSince && Clock::now() >= silentUntil())
            break;
        const auto wait =
            std::min(std::chrono::milliseconds(250) * (1 << std::min(attempt - 1, 5)), std::chrono::milliseconds(5000));
        m_trouble = QStringLiteral("%1; connecting again in %2 s (attempt %3 of %4)")
                        .arg(failure.message)
                        .arg(double(wait.count()) / 1000.0)
                        .arg(attempt)
                        .arg(attempts);
        reportProgress(true);
        if (!m_control.sleepUntil(Clock::now() + wait)) {
            m_summary.cancelled = true;
            return nullptr;
        }
        redis::ConnectionOptions options = m_options.connection;
        if (m_silentSince) { // no attempt waits past the end of the silence allowed
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(silentUntil() - Clock::now());
            const int leftMs = int(std::max<std::int64_t>(left.count(), 500));
            options.connectTimeoutMs = std::min(options.connectTimeoutMs, leftMs);
            options.commandTimeoutMs = std::min(options.commandTimeoutMs, leftMs);
        }
        Result<std::unique_ptr<Connection>> opened = Connection::open(options, m_control.cancelFlag());
        if (opened) {
            m_trouble.clear();
            ++m_summary.reconnects;
            return std::move(*opened);
        }
        if (opened.error().kind == ErrorKind::Cancelled) {
            m_summary.cancelled = true;
            return nullptr;
        }
        failure = opened.error();
        if (!failure.isTransient())
            break;
    }
    m_trouble.clear();
    if (m_silentSince && Clock::now() >= silentUntil())
        fail(Error{failure.kind,
                   QStringLiteral("%1 answered nothing for %2 s, not even a new connection: gave up (a stopped or "
                                  "overloaded server; --command-timeout and --reconnect set how long to wait)")
                       .arg(m_options.connection.address())
                       .arg(std::chrono::duration_cast<std::chrono::seconds>(silence()).count())});
    else
        fail(Error{
            failure.kind,
            QStringLiteral("%1 (gave up after %2 attempts to connect again)").arg(failure.message).arg(attempts)});
    return nullptr;
}

std::optional<QByteArray> ScanRun::clusterNodeId(Connection& connection)
{
    const Result<Reply> reply = connection.command({"CLUSTER", "MYID"});
    if (!reply)
        return reply.error().isDenied() ? std::nullopt : std::optional<QByteArray>(QByteArray());
    if (reply->isString())
        return reply->bytes().toByteArray();
    return QByteArray(); // "ERR This instance has cluster support disabled"
}

bool ScanRun::isExpectedNode(Connection& connection)
{
    if (!m_options.clusterNode || m_options.clusterNodeId.isEmpty())
        return true;
    const std::optional<QByteArray> id = clusterNodeId(connection);
    if (!id || *id == m_options.clusterNodeId)
        return true;
    // The node died and another server took its port since: its keys are not this shard's, and scanning them
    // could go on for as long as that server has keys.
    fail(Error{ErrorKind::Server,
               QStringLiteral("another server now answers at %1 (not the cluster node scanned there): the node's "
                              "slots were not scanned to the end")
                   .arg(m_options.connection.address())});
    return false;
}

bool ScanRun::resumeOn(Connection& connection, const QByteArray& cursor)
{
    // Keys SCAN returned whose answers are lost with the old connection come again from the cursor: they count as
    // seen once, so that every key seen is still stored, a duplicate, vanished or in flight.
    std::uint64_t undelivered = 0;
    for (const Request& request : m_inFlight)
        undelivered += request.isScan ? 0 : request.last - request.first;
    if (m_keysToInspect)
        undelivered += m_keysToInspect->at(1).size() - m_nextKeyToInspect;
    m_summary.keysSeen -= std::min(undelivered, m_summary.keysSeen);
    m_inFlight.clear();
    m_keysToInspect.reset();
    m_nextKeyToInspect = 0;
    m_cursorDone = false;
    const redis::ServerInfo info = redis::queryServerInfo(connection);
    m_summary.server.address = info.address; // another host after a failover found through a sentinel
    if (info.runId != m_summary.server.runId && !isExpectedNode(connection))
        return false;
    if (!info.runId.isEmpty() && !m_summary.server.runId.isEmpty() && info.runId != m_summary.server.runId) {
        // A restarted server's cursors mean nothing to it, and its keys may differ: start over.
        m_summary.serverRestarted = true;
        m_witness.serverReplaced();
        m_summary.server.runId = info.runId;
        m_summary.server.dbsize = info.dbsize;
        notice(QStringLiteral("the server restarted or another took over in a failover during the scan (its run_id "
                              "changed), so the scan started over; keys stored before may be gone from it"));
        m_nextCursor = QByteArray("0");
        return true;
    }
    m_nextCursor = cursor;
    return true;
}

} // namespace

ScanSummary runScan(std::uint64_t jobId, const ScanOptions& options, ScanControl& control, ScanSink& sink)
{
    ScanRun run(jobId, options, control, sink);
    return run.run();
}

} // namespace keylens::scan
