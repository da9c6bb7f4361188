#include "edit/KeyEdit.h"

#include "keyspace/KeyEscape.h"
#include "redis/ClusterRoutes.h"
#include "scan/KeyAnswers.h"

#include <QDateTime>

#include <cmath>

namespace keylens::edit {

namespace {
redis::Result<EditOutcome> applyEditHere(redis::Connection& connection, const KeyEdit& edit);
}

using redis::Error;
using redis::ErrorKind;
using redis::Reply;
using redis::ReplyView;
using redis::Result;
using Command = std::vector<QByteArray>;

namespace {

Result<Reply> run(redis::Connection& connection, const Command& command)
{
    connection.append(command);
    return connection.read();
}

// What a read command's reply says the server holds: the bytes, an integer as text, or nothing.
std::optional<QByteArray> held(ReplyView reply)
{
    if (reply.isNil())
        return std::nullopt;
    if (reply.isInteger())
        return QByteArray::number(reply.integer());
    return reply.bytes().toByteArray();
}

EditOutcome refused(ReplyView reply)
{
    EditOutcome outcome;
    outcome.message = QString::fromUtf8(reply.bytes());
    return outcome;
}

EditOutcome conflict(std::optional<QByteArray> current, QString message)
{
    EditOutcome outcome;
    outcome.conflict = true;
    outcome.current = std::move(current);
    outcome.message = std::move(message);
    return outcome;
}

// How two readings of one element compare: bytes exactly, scores as numbers ("1.5" and "1.50" are one score).
enum class Compare { Bytes, Score };

bool same(const std::optional<QByteArray>& a, const std::optional<QByteArray>& b, Compare compare)
{
    if (!a || !b)
        return !a && !b;
    if (compare == Compare::Score) {
        bool okA = false, okB = false;
        const double x = a->toDouble(&okA), y = b->toDouble(&okB);
        if (okA && okB)
            return x == y;
    }
    return *a == *b;
}

// The type an element edit needs its key to have: the key was read as that, and an edit of a key that is gone or
// of another type now is a conflict, never a silent create. Empty for edits of whole keys.
QByteArray elementKeyType(KeyEdit::Kind kind)
{
    using Kind = KeyEdit::Kind;
    switch (kind) {
    case Kind::SetHashField:
    case Kind::RemoveHashField:
        return "hash";
    case Kind::SetListElement:
    case Kind::InsertListElement:
    case Kind::RemoveListElements:
    case Kind::AppendListElement:
        return "list";
    case Kind::AddSetMember:
    case Kind::RemoveSetMember:
    case Kind::ReplaceSetMember:
        return "set";
    case Kind::SetZsetMember:
    case Kind::RenameZsetMember:
    case Kind::RemoveZsetMember:
        return "zset";
    case Kind::AddStreamEntry:
    case Kind::RemoveStreamEntry:
        return "stream";
    case Kind::SetString:
    case Kind::CreateKey:
    case Kind::Rename:
    case Kind::Duplicate:
    case Kind::SetTtl:
    case Kind::Persist:
        break;
    }
    return {};
}

EditOutcome typeConflict(const QByteArray& key, QByteArrayView typeNow)
{
    EditOutcome outcome;
    outcome.conflict = true;
    outcome.keyGone = typeNow == "none";
    outcome.message = outcome.keyGone ? QStringLiteral("%1 is gone: it was deleted or renamed since it was read")
                                            .arg(keyspace::displayString(key))
                                      : QStringLiteral("%1 is a %2 now, not what was read")
                                            .arg(keyspace::displayString(key), QString::fromUtf8(typeNow));
    return outcome;
}

// The optimistic transaction every guarded edit is: WATCH the keys, read what the user saw and compare, then write
// in MULTI/EXEC. EXEC answers nil when a watched key changed between the read and the write: a conflict too.
struct Guard
{
    Guard(std::vector<QByteArray> watch, Command read, std::optional<QByteArray> expected, Compare compare,
          QString conflictText, int readDatabase = -1, QString firstWriteZero = {})
        : watch(std::move(watch))
        , read(std::move(read))
        , expected(std::move(expected))
        , compare(compare)
        , conflictText(std::move(conflictText))
        , readDatabase(readDatabase)
        , firstWriteZero(std::move(firstWriteZero))
    {}
    std::vector<QByteArray> watch;
    Command read;                       // what the user saw, asked again; empty: only the key's type is checked
    std::optional<QByteArray> expected; // nothing: the read must answer nil (or 0 for EXISTS)
    Compare compare;
    QString conflictText; // "The value changed since it was read"
    int readDatabase;     // SELECT this for the read (and its WATCH), then the connection's again; -1: no SELECT
    // When set: the first write answering 0 or less (a COPY of a key gone by now, LINSERT without its pivot) means
    // nothing was done, for this reason.
    QString firstWriteZero;
    // When set: the key (the first watched) must still be of this type (TYPE's word), checked under the same WATCH,
    // or the edit is a conflict: an element written to a key deleted or renamed since it was read would create a new
    // key under the old name.
    QByteArray keyType;
};

// The guard of a write that creates `key`: it must not exist, and the user hears so if it does by now.
Guard keyAbsent(const QByteArray& key)
{
    return {{key},
            {"EXISTS", key},
            std::nullopt,
            Compare::Bytes,
            QStringLiteral("%1 exists already").arg(keyspace::displayString(key))};
}

Result<EditOutcome> guarded(redis::Connection& connection, const Guard& guard, const std::vector<Command>& writes)
{
    const QByteArray home = QByteArray::number(connection.options().db);
    const bool elsewhere = guard.readDatabase >= 0;
    Command watch{"WATCH"};
    watch.insert(watch.end(), guard.watch.begin(), guard.watch.end());
    std::vector<Command> reads;
    if (elsewhere)
        reads.push_back({"SELECT", QByteArray::number(guard.readDatabase)});
    reads.push_back(watch);
    const bool typed = !guard.keyType.isEmpty();
    if (typed)
        reads.push_back({"TYPE", guard.watch.front()});
    if (!guard.read.empty())
        reads.push_back(guard.read);
    if (elsewhere)
        reads.push_back({"SELECT", home});
    Result<std::vector<Reply>> replies = connection.pipeline(reads);
    if (!replies)
        return replies.error();
    const std::size_t first = elsewhere ? 1 : 0;
    const Reply* watched = &(*replies)[first];
    const Reply* type = typed ? &(*replies)[first + 1] : nullptr;
    const Reply* now = guard.read.empty() ? nullptr : &(*replies)[first + (typed ? 2 : 1)];
    // The type first: an element read of a key of another type fails (WRONGTYPE), and that is the conflict to name.
    if (type && !type->isError() && type->bytes() != QByteArrayView(guard.keyType)) {
        if (Result<Reply> unwatched = run(connection, {"UNWATCH"}); !unwatched)
            return unwatched.error();
        return typeConflict(guard.watch.front(), type->bytes());
    }
    if (watched->isError() || (now && now->isError()) || (type && type->isError())) {
        (void)run(connection, {"UNWATCH"});
        return refused(watched->isError() ? *watched : type && type->isError() ? *type : *now);
    }
    if (now) {
        std::optional<QByteArray> current = held(*now);
        if (now->isInteger() && !guard.expected && now->integer() == 0)
            current.reset(); // EXISTS 0: nothing there, as expected
        if (!same(current, guard.expected, guard.compare)) {
            if (Result<Reply> unwatched = run(connection, {"UNWATCH"}); !unwatched)
                return unwatched.error();
            return conflict(current, guard.conflictText);
        }
    }

    connection.append({"MULTI"});
    for (const Command& write : writes)
        connection.append(write);
    connection.append({"EXEC"});
    std::optional<EditOutcome> queueRefusal;
    for (std::size_t i = 0; i < writes.size() + 1; ++i) { // MULTI's +OK and each +QUEUED
        Result<Reply> queued = connection.read();
        if (!queued)
            return queued.error();
        if (queued->isError() && !queueRefusal)
            queueRefusal = refused(*queued);
    }
    Result<Reply> executed = connection.read();
    if (!executed)
        return executed.error();
    if (queueRefusal)
        return *queueRefusal; // EXEC answered EXECABORT: nothing was written
    if (executed->isNil() && guard.read.empty())
        return conflict(std::nullopt, guard.conflictText);
    if (executed->isNil()) {
        // Changed between the read and the write: ask once more what it holds now, for the diff.
        if (elsewhere)
            (void)run(connection, {"SELECT", QByteArray::number(guard.readDatabase)});
        Result<Reply> after = run(connection, guard.read);
        if (elsewhere)
            (void)run(connection, {"SELECT", home});
        if (!after)
            return after.error();
        return conflict(after->isError() ? std::nullopt : held(*after), guard.conflictText);
    }
    if (executed->isError())
        return refused(*executed);
    // 0 (or LINSERT's -1): the element or key the write needed was not (or was already) there.
    if (!guard.firstWriteZero.isEmpty() && executed->size() > 0 && executed->at(0).isInteger() &&
        executed->at(0).integer() <= 0)
        return conflict(std::nullopt, guard.firstWriteZero);
    EditOutcome outcome;
    outcome.applied = true;
    for (std::size_t i = 0; i < executed->size(); ++i) {
        if (executed->at(i).isError()) {
            outcome.applied = false;
            outcome.message = QString::fromUtf8(executed->at(i).bytes());
        }
        if (executed->at(i).isString())
            outcome.reply = executed->at(i).bytes().toByteArray();
    }
    return outcome;
}

// A command whose integer answer tells whether it did anything: 0 means the element or key was not (or was
// already) there, which `zeroText` explains.
//
// With `keyType`, the key must still be of that type: the guarded transaction with no read but the type, so that an
// element is never added to a key that was deleted or renamed since it was read.
Result<EditOutcome> counted(redis::Connection& connection, const Command& command, const QString& zeroText,
                            const QByteArray& keyType = {})
{
    if (!keyType.isEmpty()) {
        Guard guard{
            {command[1]},
            {},
            std::nullopt,
            Compare::Bytes,
            QStringLiteral("%1 changed on the server since it was read").arg(keyspace::displayString(command[1])),
            -1,
            zeroText};
        guard.keyType = keyType;
        return guarded(connection, guard, {command});
    }
    Result<Reply> reply = run(connection, command);
    if (!reply)
        return reply.error();
    if (reply->isError())
        return refused(*reply);
    EditOutcome outcome;
    if (reply->isString()) { // XADD's id
        outcome.applied = true;
        outcome.reply = reply->bytes().toByteArray();
    } else if (reply->isInteger() && reply->integer() <= 0) {
        outcome = conflict(std::nullopt, zeroText);
    } else {
        outcome.applied = true;
    }
    return outcome;
}

Command withFields(Command command, const QByteArrayList& fields)
{
    for (const QByteArray& field : fields)
        command.push_back(field);
    return command;
}

std::optional<Command> creation(const KeyEdit& edit)
{
    using keyspace::KeyType;
    switch (edit.type) {
    case KeyType::String:
        return Command{"SET", edit.key, edit.value};
    case KeyType::Hash:
        return withFields({"HSET", edit.key}, edit.fields);
    case KeyType::List:
        return withFields({"RPUSH", edit.key}, edit.fields);
    case KeyType::Set:
        return withFields({"SADD", edit.key}, edit.fields);
    case KeyType::ZSet:
        return withFields({"ZADD", edit.key}, edit.fields);
    case KeyType::Stream:
        return withFields({"XADD", edit.key, "*"}, edit.fields);
    case KeyType::Other:
    case KeyType::Unknown:
        break;
    }
    return std::nullopt;
}

} // namespace

redis::Result<std::optional<keyspace::KeyInfo>> readKeyFacts(redis::Connection& connection, const QByteArray& key)
{
    return redis::forKey(connection, key, [&]() -> redis::Result<std::optional<keyspace::KeyInfo>> {
        Result<std::vector<Reply>> replies = connection.pipeline(
            {{"TYPE", key},
             {"PTTL", key},
             {"MEMORY", "USAGE", key},
             {"OBJECT", "IDLETIME", key},
             {"MEMORY", "USAGE", key, "SAMPLES", scan::samplesArgument(scan::MemoryCheck::WasSampled).toByteArray()}});
        if (!replies)
            return replies.error();
        // Read as the scan reads them, so that an edited key is stored as a scanned one would be. (Under an LFU
        // policy IDLETIME is an error: the access stays unknown.) One key: whether its memory was sampled is asked
        // whatever its size.
        scan::KeyAnswers answers{std::move((*replies)[0]),     std::move((*replies)[1]),       std::move((*replies)[2]),
                                 std::move((*replies)[3]),     scan::AccessQuestion::IdleTime, std::move((*replies)[4]),
                                 scan::MemoryCheck::WasSampled};
        keyspace::KeyInfo info;
        if (!scan::keyFromAnswers(answers, QDateTime::currentMSecsSinceEpoch(), &info))
            return std::optional<keyspace::KeyInfo>();
        return std::optional<keyspace::KeyInfo>(info);
    });
}

QByteArray scoreText(double score)
{
    if (std::isinf(score))
        return score > 0 ? "inf" : "-inf";
    return QByteArray::number(score, 'g', 17).toDouble() == QByteArray::number(score, 'g', 15).toDouble()
               ? QByteArray::number(score, 'g', 15)
               : QByteArray::number(score, 'g', 17);
}

Result<EditOutcome> applyEdit(redis::Connection& connection, const KeyEdit& edit)
{
    return redis::forKey(connection, edit.key, [&] { return applyEditHere(connection, edit); });
}

namespace {

Result<EditOutcome> applyEditHere(redis::Connection& connection, const KeyEdit& edit)
{
    if (connection.options().readOnly)
        return Error{ErrorKind::ReadOnly, QStringLiteral("The connection is read-only: the change to %1 was not sent.")
                                              .arg(keyspace::displayString(edit.key))};
    const QString changed =
        QStringLiteral("%1 changed on the server since it was read").arg(keyspace::displayString(edit.key));
    using Kind = KeyEdit::Kind;
    // An element edit also checks, under the same WATCH, that its key is still of the type it was read as.
    const QByteArray type = elementKeyType(edit.kind);
    const auto guardedEdit = [&](Guard guard, const std::vector<Command>& writes) {
        guard.keyType = type;
        return guarded(connection, guard, writes);
    };
    const auto countedEdit = [&](const Command& command, const QString& zeroText) {
        return counted(connection, command, zeroText, type);
    };
    switch (edit.kind) {
    case Kind::SetString:
        if (!edit.expected)
            return guardedEdit(keyAbsent(edit.key), {{"SET", edit.key, edit.value}});
        return guardedEdit({{edit.key}, {"GET", edit.key}, edit.expected, Compare::Bytes, changed},
                           {{"SET", edit.key, edit.value, "KEEPTTL"}});
    case Kind::SetHashField:
        return guardedEdit(
            {{edit.key},
             {"HGET", edit.key, edit.field},
             edit.expected,
             Compare::Bytes,
             edit.expected
                 ? QStringLiteral("The field %1 changed since it was read").arg(keyspace::displayString(edit.field))
                 : QStringLiteral("The field %1 exists already").arg(keyspace::displayString(edit.field))},
            {{"HSET", edit.key, edit.field, edit.value}});
    case Kind::RemoveHashField:
        return guardedEdit(
            {{edit.key},
             {"HGET", edit.key, edit.field},
             edit.expected,
             Compare::Bytes,
             QStringLiteral("The field %1 changed since it was read").arg(keyspace::displayString(edit.field))},
            {{"HDEL", edit.key, edit.field}});
    case Kind::SetListElement: {
        const QByteArray index = QByteArray::number(qlonglong(edit.index));
        return guardedEdit({{edit.key},
                            {"LINDEX", edit.key, index},
                            edit.expected,
                            Compare::Bytes,
                            QStringLiteral("The element at %1 changed since it was read").arg(edit.index)},
                           {{"LSET", edit.key, index, edit.value}});
    }
    case Kind::InsertListElement: // -1: the pivot is not there any more
        return countedEdit({"LINSERT", edit.key, edit.before ? "BEFORE" : "AFTER", edit.field, edit.value},
                           QStringLiteral("%1 is not in the list any more").arg(keyspace::displayString(edit.field)));
    case Kind::RemoveListElements:
        return countedEdit({"LREM", edit.key, QByteArray::number(qlonglong(edit.index)), edit.value},
                           QStringLiteral("%1 is not in the list any more").arg(keyspace::displayString(edit.value)));
    case Kind::AppendListElement:
        return countedEdit({"RPUSH", edit.key, edit.value}, {});
    case Kind::AddSetMember:
        return countedEdit({"SADD", edit.key, edit.value},
                           QStringLiteral("%1 is a member already").arg(keyspace::displayString(edit.value)));
    case Kind::RemoveSetMember:
        return countedEdit({"SREM", edit.key, edit.field},
                           QStringLiteral("%1 is not a member any more").arg(keyspace::displayString(edit.field)));
    case Kind::ReplaceSetMember:
        return guardedEdit({{edit.key},
                            {"SISMEMBER", edit.key, edit.field},
                            QByteArray("1"),
                            Compare::Bytes,
                            QStringLiteral("%1 is not a member any more").arg(keyspace::displayString(edit.field))},
                           {{"SREM", edit.key, edit.field}, {"SADD", edit.key, edit.value}});
    case Kind::SetZsetMember:
        return guardedEdit(
            {{edit.key},
             {"ZSCORE", edit.key, edit.field},
             edit.expected,
             Compare::Score,
             edit.expected
                 ? QStringLiteral("The score of %1 changed since it was read").arg(keyspace::displayString(edit.field))
                 : QStringLiteral("%1 is a member already").arg(keyspace::displayString(edit.field))},
            {{"ZADD", edit.key, scoreText(edit.score), edit.field}});
    case Kind::RenameZsetMember:
        return guardedEdit(
            {{edit.key},
             {"ZSCORE", edit.key, edit.field},
             edit.expected,
             Compare::Score,
             QStringLiteral("The score of %1 changed since it was read").arg(keyspace::displayString(edit.field))},
            {{"ZREM", edit.key, edit.field}, {"ZADD", edit.key, scoreText(edit.score), edit.value}});
    case Kind::RemoveZsetMember:
        return countedEdit({"ZREM", edit.key, edit.field},
                           QStringLiteral("%1 is not a member any more").arg(keyspace::displayString(edit.field)));
    case Kind::AddStreamEntry:
        return countedEdit(
            withFields({"XADD", edit.key, edit.field.isEmpty() ? QByteArray("*") : edit.field}, edit.fields), {});
    case Kind::RemoveStreamEntry:
        return countedEdit(
            {"XDEL", edit.key, edit.field},
            QStringLiteral("The entry %1 is not in the stream any more").arg(keyspace::displayString(edit.field)));
    case Kind::CreateKey: {
        const std::optional<Command> create = creation(edit);
        if (!create)
            return Error{ErrorKind::Unsupported, QStringLiteral("Keylens creates strings, hashes, lists, sets, sorted "
                                                                "sets and streams")};
        std::vector<Command> writes{*create};
        if (edit.ttlMs > 0)
            writes.push_back({"PEXPIRE", edit.key, QByteArray::number(qlonglong(edit.ttlMs))});
        return guardedEdit(keyAbsent(edit.key), writes);
    }
    case Kind::Rename:
        if (edit.database < 0 || edit.database == connection.options().db)
            return countedEdit({"RENAMENX", edit.key, edit.newKey},
                               QStringLiteral("%1 exists already").arg(keyspace::displayString(edit.newKey)));
        // To another database: copy there and delete here at once, with the new name watched over there.
        return guardedEdit(
            {{edit.newKey},
             {"EXISTS", edit.newKey},
             std::nullopt,
             Compare::Bytes,
             QStringLiteral("%1 exists already in database %2")
                 .arg(keyspace::displayString(edit.newKey))
                 .arg(edit.database),
             edit.database,
             QStringLiteral("%1 is gone").arg(keyspace::displayString(edit.key))},
            {{"COPY", edit.key, edit.newKey, "DB", QByteArray::number(edit.database)}, {"DEL", edit.key}});
    case Kind::Duplicate: {
        Command copy{"COPY", edit.key, edit.newKey};
        if (edit.database >= 0)
            copy.insert(copy.end(), {"DB", QByteArray::number(edit.database)});
        return countedEdit(copy, QStringLiteral("%1 exists already").arg(keyspace::displayString(edit.newKey)));
    }
    case Kind::SetTtl:
        return countedEdit({"PEXPIRE", edit.key, QByteArray::number(qlonglong(edit.ttlMs))},
                           QStringLiteral("%1 is gone").arg(keyspace::displayString(edit.key)));
    case Kind::Persist:
        return countedEdit({"PERSIST", edit.key},
                           QStringLiteral("%1 has no TTL, or is gone").arg(keyspace::displayString(edit.key)));
    }
    return Error{ErrorKind::Unsupported, QStringLiteral("Unknown edit")};
}

} // namespace

} // namespace keylens::edit
