#include "redis/WriteGate.h"

#include <QSet>

#include <optional>

namespace keylens::redis {

namespace {

QByteArray lowerName(QByteArrayView name)
{
    return name.toByteArray().toLower();
}

// Read commands a read-only connection may send when the server will not show its COMMAND table. Data
// reads only, plus the few server reads Keylens and its users need; container commands by subcommand.
const QSet<QByteArray>& fixedReads()
{
    static const QSet<QByteArray> reads = {
        "ping",
        "echo",
        "info",
        "time",
        "role",
        "dbsize",
        "lastsave",
        "command",
        "select",
        "auth",
        "hello",
        "quit",
        "exists",
        "type",
        "ttl",
        "pttl",
        "expiretime",
        "pexpiretime",
        "scan",
        "randomkey",
        "keys",
        "dump",
        "touch",
        "get",
        "mget",
        "getrange",
        "substr",
        "strlen",
        "getbit",
        "bitcount",
        "bitpos",
        "bitfield_ro",
        "lcs",
        "hget",
        "hmget",
        "hgetall",
        "hlen",
        "hkeys",
        "hvals",
        "hexists",
        "hstrlen",
        "hrandfield",
        "hscan",
        "lrange",
        "llen",
        "lindex",
        "lpos",
        "smembers",
        "scard",
        "sismember",
        "smismember",
        "srandmember",
        "sinter",
        "sintercard",
        "sunion",
        "sdiff",
        "sscan",
        "zrange",
        "zrevrange",
        "zrangebyscore",
        "zrevrangebyscore",
        "zrangebylex",
        "zrevrangebylex",
        "zcard",
        "zscore",
        "zmscore",
        "zrank",
        "zrevrank",
        "zcount",
        "zlexcount",
        "zrandmember",
        "zinter",
        "zunion",
        "zdiff",
        "zintercard",
        "zscan",
        "xrange",
        "xrevrange",
        "xlen",
        "xread",
        "xpending",
        "geopos",
        "geodist",
        "geohash",
        "georadius_ro",
        "georadiusbymember_ro",
        "geosearch",
        "sort_ro",
        "eval_ro",
        "evalsha_ro",
        "fcall_ro",
        "object|encoding",
        "object|freq",
        "object|idletime",
        "object|refcount",
        "object|help",
        "memory|usage",
        "memory|stats",
        "memory|doctor",
        "client|getname",
        "client|id",
        "client|info",
        "client|list",
        "config|get",
        "slowlog|get",
        "slowlog|len",
        "latency|latest",
        "latency|history",
        "latency|doctor",
        "xinfo|stream",
        "xinfo|groups",
        "xinfo|consumers",
        "acl|whoami",
        "cluster|info",
        "cluster|nodes",
        "cluster|slots",
        "cluster|shards",
        "cluster|keyslot",
        "command|info",
        "command|docs",
        "command|count",
    };
    return reads;
}

// Scripts may write whatever their flags say (Redis 6.0 flags EVAL as neither), a message published reaches every
// subscriber (a job runner, a cache invalidation) though it changes no key, and a subscription changes what the
// server sends this client: writes, whatever the flags.
bool writesWhateverTheFlags(QByteArrayView name)
{
    static const QSet<QByteArray> commands = {"eval",        "evalsha",      "fcall",        "module",     "debug",
                                              "publish",     "spublish",     "subscribe",    "psubscribe", "ssubscribe",
                                              "unsubscribe", "punsubscribe", "sunsubscribe", "reset"};
    return commands.contains(name.toByteArray());
}

// Containers whose subcommands change the server's state (not only its data) though COMMAND does not flag them so
// (SCRIPT FLUSH, SCRIPT LOAD, MEMORY PURGE, CLIENT SETNAME and NO-EVICT, LATENCY RESET, SLOWLOG RESET…): every
// subcommand writes except the ones listed here, which only read. An unknown subcommand writes.
const QHash<QByteArray, QSet<QByteArray>>& stateContainers()
{
    static const QHash<QByteArray, QSet<QByteArray>> containers = {
        {"script", {"exists", "help"}},
        {"function", {"list", "stats", "dump", "help"}},
        {"memory", {"usage", "stats", "doctor", "malloc-stats", "help"}},
        // NO-TOUCH changes only how this connection's own reads count (they leave keys' idle times alone).
        {"client", {"getname", "id", "info", "list", "getredir", "trackinginfo", "no-touch", "help"}},
        {"config", {"get", "help"}},
        {"latency", {"latest", "history", "doctor", "graph", "histogram", "help"}},
        {"slowlog", {"get", "len", "help"}},
        {"acl", {"whoami", "list", "users", "getuser", "cat", "genpass", "dryrun", "log", "help"}},
        {"cluster",
         {"info", "nodes", "slots", "shards", "keyslot", "countkeysinslot", "getkeysinslot", "myid", "myshardid",
          "links", "replicas", "slaves", "count-failure-reports", "help"}},
    };
    return containers;
}

// Whether a command of a state container writes: nothing when `name` is no such container.
std::optional<bool> stateContainerWrites(std::span<const QByteArrayView> command, const QByteArray& name)
{
    const auto container = stateContainers().constFind(name);
    if (container == stateContainers().constEnd())
        return std::nullopt;
    if (command.size() < 2)
        return true; // the container alone is an error on the server, and a refusal here costs nothing
    const QByteArray subcommand = lowerName(command[1]);
    if (name == "acl" && subcommand == "log" && command.size() > 2)
        return true; // ACL LOG RESET
    return !container->contains(subcommand);
}

bool writesByFlags(ReplyView flags, QByteArrayView name)
{
    bool write = false;
    for (std::size_t i = 0; i < flags.size(); ++i) {
        QByteArray flag = flags.at(i).bytes().toByteArray();
        flag.replace('-', '_');
        // admin covers CONFIG SET, SHUTDOWN, CLIENT KILL, REPLICAOF…; its reads are in the fixed list.
        if (flag == "write" || flag == "may_replicate" || flag == "admin")
            write = true;
    }
    if (write && fixedReads().contains(name.toByteArray()))
        return false;
    return write || writesWhateverTheFlags(name);
}

} // namespace

void WriteGate::learn(ReplyView table)
{
    if (!table.isArray())
        return;
    // Each entry: name, arity, flags, first key, last key, step, and on Redis 7 (index 9) its subcommands,
    // entries of the same shape named "container|sub".
    const auto learnEntry = [this](ReplyView entry, const auto& self) -> void {
        if (!entry.isArray() || entry.size() < 3)
            return;
        const QByteArray name = lowerName(entry.at(0).bytes());
        m_writes.insert(name, writesByFlags(entry.at(2), name));
        if (entry.size() > 9 && entry.at(9).isArray()) {
            for (std::size_t i = 0; i < entry.at(9).size(); ++i)
                self(entry.at(9).at(i), self);
        }
    };
    for (std::size_t i = 0; i < table.size(); ++i)
        learnEntry(table.at(i), learnEntry);
}

QByteArray WriteGate::commandName(std::span<const QByteArrayView> command) const
{
    if (command.empty())
        return {};
    // As typed: a refusal quotes what the user wrote, not a normalised form of it.
    QByteArray name = command[0].toByteArray().left(40);
    if (command.size() > 1) {
        const QByteArray container = lowerName(command[0]);
        const QByteArray subcommand = container + '|' + lowerName(command[1]);
        if (m_writes.contains(subcommand) || fixedReads().contains(subcommand) || stateContainers().contains(container))
            name += ' ' + command[1].toByteArray().left(40);
    }
    return name;
}

bool WriteGate::isWrite(std::span<const QByteArrayView> command) const
{
    if (command.empty())
        return false;
    const QByteArray name = lowerName(command[0]);
    if (const std::optional<bool> writes = stateContainerWrites(command, name))
        return *writes;
    if (writesWhateverTheFlags(name))
        return true;
    const QByteArray subcommand = command.size() > 1 ? name + '|' + lowerName(command[1]) : QByteArray();
    if (!m_writes.isEmpty()) {
        // A subcommand the table lists (Redis 7); else the container's flags (Redis 6 lists no subcommands), where a
        // container flagged admin still reads through the subcommands of the fixed list (CONFIG GET).
        if (auto it = m_writes.constFind(subcommand); !subcommand.isEmpty() && it != m_writes.constEnd())
            return *it;
        if (auto it = m_writes.constFind(name); it != m_writes.constEnd())
            return *it && !fixedReads().contains(subcommand);
        return true;
    }
    return !fixedReads().contains(name) && !fixedReads().contains(subcommand);
}

bool isDangerousCommand(std::span<const QByteArrayView> command)
{
    if (command.empty())
        return false;
    const QByteArray name = command.front().toByteArray().toLower();
    if (name == "flushall" || name == "flushdb" || name == "keys" || name == "debug" || name == "shutdown")
        return true;
    return name == "config" && command.size() > 1 && command[1].toByteArray().toLower() == "set";
}

} // namespace keylens::redis
