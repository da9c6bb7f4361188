#include "lint/LibraryLayouts.h"

#include "lint/Characters.h"
#include "lint/SegmentMarks.h"
#include "lint/SegmentShape.h"
#include "lint/SegmentShapes.h"
#include "lint/ValueShape.h"

#include <QSet>

#include <algorithm>
#include <array>

namespace keylens::lint {

using keyspace::Keyspace;
using keyspace::KeyType;
using keyspace::NodeId;

namespace {

// The layouts as each library documents them (or, where it does not, as its source names the keys).
constexpr std::array Libraries{
    LibraryInfo{"bullmq", "BullMQ",
                "<prefix>:<queue>:id (string) beside its state keys: wait, active, paused (lists); delayed, "
                "prioritized, completed, failed (sorted sets); and its meta (hash) or events (stream)",
                LibraryRole::Queue},
    LibraryInfo{"bull", "Bull",
                "<prefix>:<queue>:id (string) beside its state keys: wait, active, paused (lists); delayed, "
                "priority, completed, failed (sorted sets); no meta hash or events stream (BullMQ's)",
                LibraryRole::Queue},
    LibraryInfo{"bee-queue", "Bee-Queue",
                "<prefix>:<queue>:id (string) and jobs (hash) beside waiting, active (lists); succeeded, failed, "
                "stalling (sets) or delayed (sorted set)",
                LibraryRole::Queue},
    LibraryInfo{"sidekiq", "Sidekiq",
                "queues (set) naming queue:<name> (lists), with schedule, retry, dead (sorted sets) or processes (set)",
                LibraryRole::Queue},
    LibraryInfo{"resque", "Resque / node-resque",
                "resque:queues (set) naming resque:queue:<name> (lists), workers (set), failed (list), stat:* "
                "counters, delayed_queue_schedule (sorted set)",
                LibraryRole::Queue},
    LibraryInfo{"sidekiq-cron", "sidekiq-cron", "cron_jobs (set) naming cron_job:<name> (hashes)",
                LibraryRole::Scheduler},
    LibraryInfo{"celery", "Celery",
                "celery-task-meta-<uuid> results (strings); _kombu.binding.<queue> (sets) naming <queue> (list), "
                "unacked (hash), unacked_index (sorted set)",
                LibraryRole::Queue},
    LibraryInfo{"rq", "RQ", "rq:job:<id> (hashes) with rq:queues (set), rq:queue:<name> (lists) or rq:workers (set)",
                LibraryRole::Queue},
    LibraryInfo{"connect-redis", "connect-redis (express-session)", "sess:<session id> (strings with a TTL)",
                LibraryRole::Session},
    LibraryInfo{"rails-cache", "Rails cache",
                "views/<template>… fragments and <model>/<id>-<version> entries (strings)", LibraryRole::Cache},
    LibraryInfo{"rails-session", "Rails session store", "_session_id:2::<sha256> (strings)", LibraryRole::Session},
    LibraryInfo{"rack-session", "Rack session store (redis-rack)", "rack:session:2::<sha256> (strings)",
                LibraryRole::Session},
    LibraryInfo{"django-cache", "Django cache",
                "<KEY_PREFIX>:<version>:<key>: an empty prefix and version numbers (:1:…), or the keys of "
                "cache_page (views.decorators.cache.…) and {% cache %} (template.cache.…)",
                LibraryRole::Cache},
    LibraryInfo{"django-session", "Django sessions (cache backend)",
                "<KEY_PREFIX>:<version>:django.contrib.sessions.cache<session key> (strings)", LibraryRole::Session},
    LibraryInfo{"flask-caching", "Flask-Caching", "flask_cache_<key> (strings)", LibraryRole::Cache},
    LibraryInfo{"flask-limiter", "Flask-Limiter (limits)",
                "LIMITER/<client>/<limit>/<amount>/<multiples>/<period> (counters or lists with a TTL)",
                LibraryRole::RateLimit},
    LibraryInfo{"flask-session", "Flask-Session", "session:<uuid4> (strings)", LibraryRole::Session},
    LibraryInfo{"dogpile", "dogpile.cache", "<module>:<function>|<arguments> (strings): its function_key_generator",
                LibraryRole::Cache},
    LibraryInfo{"keyv", "Keyv / cache-manager",
                "<namespace>::<namespace>:<key> (@keyv/redis 4+) or keyv:<key> with namespace:keyv (set)",
                LibraryRole::Cache},
    LibraryInfo{"rate-limiter-flexible", "rate-limiter-flexible", "rlflx:<key> (counters with a TTL)",
                LibraryRole::RateLimit},
    LibraryInfo{"socket.io", "Socket.IO Redis streams adapter",
                "socket.io (stream), sio:session:<id> (strings with a TTL)", LibraryRole::PubSub},
    LibraryInfo{"rack-attack", "Rack::Attack",
                "rack::attack:<period number>:<throttle>:<discriminator> (counters with a TTL)",
                LibraryRole::RateLimit},
    LibraryInfo{"express-rate-limit", "express-rate-limit (rate-limit-redis)", "rl:<client> (counters with a TTL)",
                LibraryRole::RateLimit},
    LibraryInfo{"spring-session", "Spring Session", "spring:session:sessions:<id> (hashes)", LibraryRole::Session},
    LibraryInfo{"laravel-cache", "Laravel cache",
                "<app>_database_<app>_cache_:<key> (strings holding PHP-serialized values)", LibraryRole::Cache},
    LibraryInfo{"laravel-queue", "Laravel queues",
                "<app>_database_queues:<name> (lists) with <name>:notify (list), <name>:reserved and <name>:delayed "
                "(sorted sets)",
                LibraryRole::Queue},
    LibraryInfo{"laravel-horizon", "Laravel Horizon",
                "<app>_horizon:recent_jobs beside pending_jobs, completed_jobs, failed_jobs (sorted sets) and the "
                "jobs' hashes",
                LibraryRole::Queue},
};

} // namespace

const char* roleName(LibraryRole role)
{
    switch (role) {
    case LibraryRole::Queue:
        return "queue";
    case LibraryRole::Cache:
        return "cache";
    case LibraryRole::Session:
        return "session";
    case LibraryRole::RateLimit:
        return "rate limit";
    case LibraryRole::Lock:
        return "lock";
    case LibraryRole::PubSub:
        return "pub/sub";
    case LibraryRole::Scheduler:
        return "scheduler";
    case LibraryRole::Temporary:
        return "temporary";
    }
    return "";
}

bool shouldExpire(LibraryRole role)
{
    return role == LibraryRole::Cache || role == LibraryRole::Session || role == LibraryRole::Lock ||
           role == LibraryRole::Temporary;
}

namespace {

bool isKeyOfType(const Keyspace& store, NodeId node, KeyType type)
{
    return node != keyspace::InvalidNode && store.isKey(node) && store.keyInfo(node).type == type;
}

bool hasKey(const Keyspace& store, NodeId parent, QByteArrayView segment, KeyType type)
{
    return isKeyOfType(store, store.findChild(parent, segment), type);
}

bool segmentIs(const Keyspace& store, NodeId node, QByteArrayView segment)
{
    return node != Keyspace::root() && store.segment(node) == segment;
}

// Every key below `node` is of `type`, and (most of) their TTLs are set: what counters and sessions
// written with an expiry look like.
bool allOfTypeMostlyExpiring(const Keyspace& store, NodeId node, KeyType type)
{
    const keyspace::NamespaceStats& stats = store.stats(node);
    if (stats.keys == 0 || stats.types[std::size_t(type)] != stats.keys)
        return false;
    return stats.keysTtlKnown() == 0 || double(stats.keysWithTtl) >= 0.9 * double(stats.keysTtlKnown());
}

// Every key is a direct child (no deeper levels), and nine in ten of the children are ids.
bool flatIdsBelow(const SegmentShapes* shapes, const Keyspace& store, NodeId node)
{
    const keyspace::NamespaceStats& stats = store.stats(node);
    if (stats.keys != stats.childCount)
        return false;
    std::uint32_t ids = 0;
    store.forEachChild(node, [&](NodeId child) { ids += isId(shapeOfNode(shapes, store, child)) ? 1 : 0; });
    return double(ids) >= 0.9 * double(stats.childCount);
}

// express-session names a session uid(24) (its generateSessionId): 24 random bytes in base64url, 32 characters
// of [A-Za-z0-9_-]. An application's own `sess:<uuid>` is not that, whatever its type and TTL: a prefix and a TTL
// are no evidence of the library.
bool isExpressSessionId(QByteArrayView id)
{
    return id.size() == 32 &&
           std::all_of(id.begin(), id.end(), [](char c) { return isLetter(c) || isDigit(c) || c == '-' || c == '_'; });
}

bool expressSessionIdsBelow(const Keyspace& store, NodeId node)
{
    std::uint32_t ids = 0, children = 0;
    store.forEachChild(node, [&](NodeId child) {
        ++children;
        ids += isExpressSessionId(store.segment(child)) ? 1 : 0;
    });
    return children > 0 && double(ids) >= 0.9 * double(children);
}

// Sidekiq and Resque keep a `queues` set of the names of their `queue:<name>` lists: the `queue` namespace
// beside such a set when every key in it is a list, or InvalidNode.
NodeId queueListsBeside(const Keyspace& store, NodeId queuesNode)
{
    const NodeId owner = store.parent(queuesNode);
    if (!isKeyOfType(store, queuesNode, KeyType::Set) || segmentIs(store, owner, "rq"))
        return keyspace::InvalidNode;
    const NodeId queue = store.findChild(owner, "queue");
    if (queue == keyspace::InvalidNode || !store.hasChildren(queue))
        return keyspace::InvalidNode;
    const keyspace::NamespaceStats& lists = store.stats(queue);
    if (lists.types[std::size_t(KeyType::List)] != lists.keys || lists.keys != lists.childCount)
        return keyspace::InvalidNode;
    return queue;
}

// Django's cache versions: `:1:`, a small number.
bool isDjangoVersion(QByteArrayView segment)
{
    return segment.size() <= 3 && !segment.isEmpty() && std::all_of(segment.begin(), segment.end(), isDigit);
}

// The first few strings below a cache namespace, depth first: the same ones for keysToRead() and recognise().
constexpr std::size_t StringSamples = 8;
std::vector<NodeId> stringSamples(const Keyspace& store, NodeId node)
{
    std::vector<NodeId> samples, stack{node};
    while (!stack.empty() && samples.size() < StringSamples) {
        const NodeId at = stack.back();
        stack.pop_back();
        if (isKeyOfType(store, at, KeyType::String))
            samples.push_back(at);
        store.forEachChild(at, [&](NodeId child) { stack.push_back(child); });
    }
    return samples;
}

// Laravel's cache store prefixes its keys with `<app>_cache` (`<app>_cache_` since Laravel 11) and ':', behind the
// connection's own `<app>_database_`, with no delimiter between the two: one segment such as
// `laravel_database_laravel_cache_`.
bool isLaravelCachePrefix(QByteArrayView segment)
{
    return segment.size() > 6 && (segment.endsWith("_cache") || segment.endsWith("_cache_"));
}

// A value as PHP's serialize() writes it (`s:5:"hello";`, `a:2:{…`, `N;`): Laravel's cache serializes every value but
// plain numbers.
bool isPhpSerialized(QByteArrayView value)
{
    return QByteArrayView(valueKindOf(value).name) == "PHP serialize";
}

class Recogniser
{
public:
    Recogniser(const Keyspace& store, const SetMembers& members, const SegmentShapes* shapes)
        : m_store(store)
        , m_members(members)
        , m_shapes(shapes)
    {}

    LibraryLayouts run()
    {
        // One pass over the nodes picks the few whose name a layout starts from (and the top level, whose names
        // are many).
        const std::vector<bool> startsLayout = markSegments(m_store, [](QByteArrayView segment) {
            return segment == "id" || segment == "queues" || segment == "cron_jobs" || segment == "rq" ||
                   segment == "attack" || segment == "session" || segment == "recent_jobs" || isDjangoVersion(segment);
        });
        for (NodeId node = 1; node < m_store.nodeCount(); ++node) {
            if (!startsLayout[m_store.segmentId(node)] && m_store.parent(node) != Keyspace::root())
                continue;
            const QByteArrayView segment = m_store.segment(node);
            if (segment == "id")
                bullQueue(node);
            else if (segment == "queues")
                workQueues(node);
            else if (segment == "cron_jobs")
                sidekiqCron(node);
            else if (segment == "rq")
                rq(node);
            else if (segment == "attack")
                rackAttack(node);
            else if (segment == "session")
                sessions(node);
            else if (segment == "recent_jobs")
                horizon(node);
            else if (m_store.parent(node) == Keyspace::root())
                topLevel(node, segment);
            else if (isDjangoVersion(segment))
                djangoVersion(node);
        }
        bullPrefixes();
        return std::move(m_layouts);
    }

private:
    const LibraryInfo* library(QByteArrayView id) const { return findLibrary(id); }

    // Claims `parent` instead of its claimed children when every child of it is one library's.
    void claimWholeWhenAllClaimed(NodeId parent, const LibraryInfo* library)
    {
        if (parent == Keyspace::root())
            return;
        bool all = true;
        m_store.forEachChild(parent, [&](NodeId child) { all = all && m_layouts.claimOf(child) == library; });
        if (!all)
            return;
        std::vector<NodeId> children;
        m_store.forEachChild(parent, [&](NodeId child) { children.push_back(child); });
        for (const NodeId child : children)
            m_layouts.unclaim(child);
        m_layouts.claim(parent, library);
    }

    void bullQueue(NodeId idNode)
    {
        // The job id counter, beside at least two of the queue's state keys of the right types.
        struct State
        {
            const char* segment;
            KeyType type;
        };
        static constexpr std::array States{
            State{"wait", KeyType::List},
            State{"active", KeyType::List},
            State{"paused", KeyType::List},
            State{"delayed", KeyType::ZSet},
            State{"prioritized", KeyType::ZSet},
            State{"completed", KeyType::ZSet},
            State{"failed", KeyType::ZSet},
            State{"waiting-children", KeyType::ZSet},
            State{"marker", KeyType::ZSet},
            State{"priority", KeyType::ZSet},
            State{"repeat", KeyType::ZSet},
            State{"meta", KeyType::Hash},
            State{"events", KeyType::Stream},
            State{"stalled", KeyType::Set},
            State{"stalled-check", KeyType::String},
            State{"limiter", KeyType::String},
            State{"pc", KeyType::String},
        };
        const NodeId queue = m_store.parent(idNode);
        if (queue == Keyspace::root() || !isKeyOfType(m_store, idNode, KeyType::String))
            return;
        if (beeQueue(queue))
            return;
        const auto states = std::count_if(States.begin(), States.end(), [&](const State& state) {
            return hasKey(m_store, queue, state.segment, state.type);
        });
        if (states < 2)
            return;
        m_layouts.claim(queue, library(isBullMq(queue) ? "bullmq" : "bull"));
        m_bullQueues.push_back(queue);
    }

    // BullMQ writes a queue's meta hash with its first job and streams its events; Bull does neither.
    bool isBullMq(NodeId queue) const
    {
        return hasKey(m_store, queue, "meta", KeyType::Hash) || hasKey(m_store, queue, "events", KeyType::Stream);
    }

    // Bee-Queue: <prefix>:<queue>:id beside the jobs hash and one of its state keys.
    bool beeQueue(NodeId queue)
    {
        if (!hasKey(m_store, queue, "jobs", KeyType::Hash))
            return false;
        const bool state =
            hasKey(m_store, queue, "waiting", KeyType::List) || hasKey(m_store, queue, "active", KeyType::List) ||
            hasKey(m_store, queue, "succeeded", KeyType::Set) || hasKey(m_store, queue, "failed", KeyType::Set) ||
            hasKey(m_store, queue, "stalling", KeyType::Set) || hasKey(m_store, queue, "delayed", KeyType::ZSet);
        if (!state)
            return false;
        m_layouts.claim(queue, library("bee-queue"));
        claimWholeWhenAllClaimed(m_store.parent(queue), library("bee-queue"));
        return true;
    }

    void bullPrefixes()
    {
        // `bull:` holds nothing but queues in most apps: the prefix is then the library's as a whole.
        std::vector<NodeId> prefixes;
        for (const NodeId queue : m_bullQueues)
            prefixes.push_back(m_store.parent(queue));
        std::sort(prefixes.begin(), prefixes.end());
        prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
        for (const NodeId prefix : prefixes) {
            // Each queue is told by its own keys: Bull and BullMQ share the `bull` prefix, often in one app that
            // moves from one to the other.
            claimWholeWhenAllClaimed(prefix, library("bullmq"));
            claimWholeWhenAllClaimed(prefix, library("bull"));
        }
    }

    void workQueues(NodeId queuesNode)
    {
        const NodeId owner = m_store.parent(queuesNode);
        const NodeId queue = queueListsBeside(m_store, queuesNode);
        if (queue == keyspace::InvalidNode) {
            if (!laravelQueues(queuesNode))
                drainedResque(queuesNode);
            return;
        }
        // The lists are the library's only when the set names them; a set that could not be read (denied, gone
        // since the scan, or offline) leaves the names and types as the evidence.
        if (const auto named = m_members.constFind(m_store.path(queuesNode)); named != m_members.cend()) {
            const QSet<QByteArray> names(named->cbegin(), named->cend());
            bool allNamed = true;
            m_store.forEachChild(queue, [&](NodeId list) {
                allNamed = allNamed && names.contains(m_store.segment(list).toByteArray());
            });
            if (!allNamed)
                return;
        }
        const bool sidekiq =
            hasKey(m_store, owner, "schedule", KeyType::ZSet) || hasKey(m_store, owner, "retry", KeyType::ZSet) ||
            hasKey(m_store, owner, "dead", KeyType::ZSet) || hasKey(m_store, owner, "processes", KeyType::Set);
        const bool resque = segmentIs(m_store, owner, "resque") || hasKey(m_store, owner, "workers", KeyType::Set) ||
                            hasKey(m_store, owner, "failed", KeyType::List);
        const LibraryInfo* which = library(sidekiq || !resque ? "sidekiq" : "resque");
        for (const char* part :
             {"queues", "queue", "schedule", "retry", "dead", "processes", "workers", "worker", "failed"}) {
            if (const NodeId node = m_store.findChild(owner, part); node != keyspace::InvalidNode)
                m_layouts.claim(node, which);
        }
        if (const NodeId stat = m_store.findChild(owner, "stat");
            stat != keyspace::InvalidNode && (m_store.findChild(stat, "processed") != keyspace::InvalidNode ||
                                              m_store.findChild(stat, "failed") != keyspace::InvalidNode))
            m_layouts.claim(stat, which);
        claimWholeWhenAllClaimed(owner, which);
    }

    // Resque and node-resque after their workers drained every queue: the lists are gone, the `queues` set is not,
    // and beside it are what a worker leaves (the failed list, stat counters, the delayed schedule, the workers set).
    void drainedResque(NodeId queuesNode)
    {
        const NodeId owner = m_store.parent(queuesNode);
        if (!segmentIs(m_store, owner, "resque") || !isKeyOfType(m_store, queuesNode, KeyType::Set))
            return;
        const NodeId stat = m_store.findChild(owner, "stat");
        const bool left =
            hasKey(m_store, owner, "failed", KeyType::List) || hasKey(m_store, owner, "workers", KeyType::Set) ||
            hasKey(m_store, owner, "delayed_queue_schedule", KeyType::ZSet) ||
            (stat != keyspace::InvalidNode && m_store.findChild(stat, "processed") != keyspace::InvalidNode);
        if (left)
            m_layouts.claim(owner, library("resque"));
    }

    // Laravel's Redis queue: queues:<name> lists, with the <name>:notify list its push writes (since 5.6), the
    // <name>:reserved sorted set of the jobs being run and the <name>:delayed one of those waiting for their time.
    bool laravelQueues(NodeId queuesNode)
    {
        if (!m_store.hasChildren(queuesNode))
            return false;
        bool evidence = false, foreign = false;
        m_store.forEachChild(queuesNode, [&](NodeId queue) {
            if (m_store.isKey(queue) && m_store.keyInfo(queue).type != KeyType::List)
                foreign = true;
            m_store.forEachChild(queue, [&](NodeId part) {
                const bool own = (isKeyOfType(m_store, part, KeyType::ZSet) &&
                                  (segmentIs(m_store, part, "reserved") || segmentIs(m_store, part, "delayed"))) ||
                                 (isKeyOfType(m_store, part, KeyType::List) && segmentIs(m_store, part, "notify"));
                evidence = evidence || own;
                foreign = foreign || !own;
            });
        });
        if (!evidence || foreign)
            return false;
        m_layouts.claim(queuesNode, library("laravel-queue"));
        return true;
    }

    // Horizon: its job lists are sorted sets of job ids beside the jobs' hashes, under its own prefix.
    void horizon(NodeId recentJobs)
    {
        if (!isKeyOfType(m_store, recentJobs, KeyType::ZSet))
            return;
        const NodeId owner = m_store.parent(recentJobs);
        std::vector<NodeId> lists{recentJobs};
        for (const char* part : {"pending_jobs", "completed_jobs", "failed_jobs", "recent_failed_jobs", "silenced_jobs",
                                 "monitored_jobs"}) {
            if (const NodeId list = m_store.findChild(owner, part); isKeyOfType(m_store, list, KeyType::ZSet))
                lists.push_back(list);
        }
        if (lists.size() < 2)
            return;
        if (owner != Keyspace::root()) {
            m_layouts.claim(owner, library("laravel-horizon"));
            return;
        }
        for (const NodeId list : lists)
            m_layouts.claim(list, library("laravel-horizon"));
    }

    // Laravel's cache: its prefix names it, its values (PHP's serialize(), numbers as they are) prove it.
    void laravelCache(NodeId prefix)
    {
        const keyspace::NamespaceStats& stats = m_store.stats(prefix);
        if (!m_store.hasChildren(prefix) ||
            stats.types[std::size_t(KeyType::String)] + stats.types[std::size_t(KeyType::ZSet)] != stats.keys)
            return; // strings, and the sorted sets of tagged entries
        std::size_t serialized = 0;
        for (const NodeId sample : stringSamples(m_store, prefix)) {
            const auto value = m_members.constFind(m_store.path(sample));
            if (value == m_members.cend() || value->size() != 1)
                continue;
            if (isPhpSerialized(value->front()))
                ++serialized;
            else if (valueKindOf(value->front()).shape != ValueShape::Number)
                return;
        }
        if (serialized > 0)
            m_layouts.claim(prefix, library("laravel-cache"));
    }

    // sidekiq-cron: the cron_jobs set beside the cron_job:<name> hashes it names.
    void sidekiqCron(NodeId cronJobs)
    {
        if (!isKeyOfType(m_store, cronJobs, KeyType::Set))
            return;
        const NodeId owner = m_store.parent(cronJobs);
        const NodeId jobs = m_store.findChild(owner, "cron_job");
        if (jobs == keyspace::InvalidNode || m_store.stats(jobs).types[std::size_t(KeyType::Hash)] == 0)
            return;
        m_layouts.claim(cronJobs, library("sidekiq-cron"));
        m_layouts.claim(jobs, library("sidekiq-cron"));
    }

    void rq(NodeId rqNode)
    {
        const NodeId jobs = m_store.findChild(rqNode, "job");
        if (jobs == keyspace::InvalidNode || m_store.stats(jobs).types[std::size_t(KeyType::Hash)] == 0)
            return;
        const NodeId queue = m_store.findChild(rqNode, "queue");
        const bool queues =
            hasKey(m_store, rqNode, "queues", KeyType::Set) || hasKey(m_store, rqNode, "workers", KeyType::Set) ||
            (queue != keyspace::InvalidNode && m_store.stats(queue).types[std::size_t(KeyType::List)] > 0);
        if (queues)
            m_layouts.claim(rqNode, library("rq"));
    }

    // rack::attack:<epoch / period>:<name>:<discriminator>, split on ':' into rack, "", attack, …
    void rackAttack(NodeId attack)
    {
        const NodeId empty = m_store.parent(attack);
        if (!segmentIs(m_store, empty, "") || !segmentIs(m_store, m_store.parent(empty), "rack") ||
            !m_store.hasChildren(attack))
            return;
        std::uint32_t periods = 0;
        m_store.forEachChild(attack,
                             [&](NodeId child) { periods += shapeOfNode(m_shapes, m_store, child) == Shape::Integer; });
        if (double(periods) < 0.9 * double(m_store.stats(attack).childCount) ||
            !allOfTypeMostlyExpiring(m_store, attack, KeyType::String))
            return;
        const NodeId rack = m_store.parent(empty);
        const bool alone = m_store.stats(rack).childCount == 1 && m_store.stats(empty).childCount == 1;
        m_layouts.claim(alone ? rack : attack, library("rack-attack"));
    }

    // sio:session:<id> (Socket.IO's connection state recovery) and spring:session:sessions:<id>.
    void sessions(NodeId session)
    {
        const NodeId owner = m_store.parent(session);
        // Flask-Session: session:<uuid4> strings, with the TTL of PERMANENT_SESSION_LIFETIME.
        if (owner == Keyspace::root()) {
            if (m_store.hasChildren(session) && allOfTypeMostlyExpiring(m_store, session, KeyType::String) &&
                flatIdsBelow(m_shapes, m_store, session) && mostChildrenAre(session, Shape::Uuid))
                m_layouts.claim(session, library("flask-session"));
            return;
        }
        const LibraryInfo* which = nullptr;
        if (segmentIs(m_store, owner, "sio") && m_store.hasChildren(session) &&
            allOfTypeMostlyExpiring(m_store, session, KeyType::String))
            which = library("socket.io");
        if (segmentIs(m_store, owner, "rack") && sessionDigestsBelow(session))
            which = library("rack-session");
        if (segmentIs(m_store, owner, "spring")) {
            const NodeId sessions = m_store.findChild(session, "sessions");
            if (sessions != keyspace::InvalidNode && m_store.stats(sessions).types[std::size_t(KeyType::Hash)] > 0)
                which = library("spring-session");
        }
        if (!which)
            return;
        m_layouts.claim(m_store.stats(owner).childCount == 1 ? owner : session, which);
    }

    void topLevel(NodeId node, QByteArrayView segment)
    {
        if (segment == "sess") {
            if (m_store.hasChildren(node) && allOfTypeMostlyExpiring(m_store, node, KeyType::String) &&
                flatIdsBelow(m_shapes, m_store, node) && expressSessionIdsBelow(m_store, node))
                m_layouts.claim(node, library("connect-redis"));
        } else if (segment == "rl") {
            // A client per key: an address (an IPv6 one, or its /56, goes on in the levels below) or another id.
            if (m_store.hasChildren(node) && allOfTypeMostlyExpiring(m_store, node, KeyType::String) &&
                mostChildrenAreIdsOrAddresses(node))
                m_layouts.claim(node, library("express-rate-limit"));
        } else if (segment == "socket.io") {
            if (isKeyOfType(m_store, node, KeyType::Stream))
                m_layouts.claim(node, library("socket.io"));
        } else if (segment.startsWith("celery-task-meta-") || segment.startsWith("celery-taskset-meta-")) {
            const QByteArrayView id = segment.sliced(segment.lastIndexOf("meta-") + 5);
            if (shapeOf(id) == Shape::Uuid && isKeyOfType(m_store, node, KeyType::String))
                m_layouts.claim(node, library("celery"));
        } else if (segment.startsWith("_kombu.binding.")) {
            if (!isKeyOfType(m_store, node, KeyType::Set))
                return;
            const LibraryInfo* celery = library("celery");
            m_layouts.claim(node, celery);
            const QByteArrayView queue = segment.sliced(qsizetype(sizeof("_kombu.binding.") - 1));
            if (const NodeId list = m_store.findChild(Keyspace::root(), queue);
                isKeyOfType(m_store, list, KeyType::List))
                m_layouts.claim(list, celery);
            for (const auto& [part, type] :
                 {std::pair{"unacked", KeyType::Hash}, std::pair{"unacked_index", KeyType::ZSet},
                  std::pair{"unacked_mutex", KeyType::String}}) {
                if (const NodeId kept = m_store.findChild(Keyspace::root(), part); isKeyOfType(m_store, kept, type))
                    m_layouts.claim(kept, celery);
            }
        } else if (segment == "_session_id") {
            if (sessionDigestsBelow(node))
                m_layouts.claim(node, library("rails-session"));
        } else if (segment == "rlflx") {
            if (m_store.hasChildren(node) && allOfTypeMostlyExpiring(m_store, node, KeyType::String))
                m_layouts.claim(node, library("rate-limiter-flexible"));
        } else if (segment.startsWith("flask_cache_")) {
            // A key, or (split on '/' too) the base64 digests with a '/' inside that Flask-Caching names keys by.
            const keyspace::NamespaceStats& stats = m_store.stats(node);
            if (isKeyOfType(m_store, node, KeyType::String) ||
                (m_store.hasChildren(node) && stats.types[std::size_t(KeyType::String)] == stats.keys))
                m_layouts.claim(node, library("flask-caching"));
        } else if (segment.startsWith("LIMITER/") || (segment == "LIMITER" && childrenFollow(node, '/'))) {
            limiterWindows(node);
        } else if (segment == "keyv") {
            if (m_store.hasChildren(node) && hasKey(m_store, Keyspace::root(), "namespace", KeyType::Set))
                m_layouts.claim(node, library("keyv"));
        } else if (isKeyvNamespace(node, segment)) {
            m_layouts.claim(node, library("keyv"));
        } else if (isDogpileModule(node, segment)) {
            m_layouts.claim(node, library("dogpile"));
        } else if (segment.isEmpty()) {
            djangoPrefix(node);
        } else if (isRailsCacheEntry(node, segment)) {
            m_layouts.claim(node, library("rails-cache"));
        } else if (childrenFollow(node, '/')) {
            // Split on '/' too: `views/products` and `products/1-<version>` are a segment and its children.
            m_store.forEachChild(node, [&](NodeId child) {
                if (m_store.joiner(child) == '/' &&
                    isRailsCacheEntry(child,
                                      QByteArray(segment.toByteArray() + '/' + m_store.segment(child).toByteArray())))
                    m_layouts.claim(child, library("rails-cache"));
            });
        } else if (isLaravelCachePrefix(segment)) {
            laravelCache(node);
        } else if (segment.endsWith("_queues")) {
            laravelQueues(node); // behind the connection's prefix, `laravel_database_` by default
        }
    }

    // limits' fixed windows are counters, its moving windows lists; all expire.
    void limiterWindows(NodeId node)
    {
        const keyspace::NamespaceStats stats = m_store.stats(node);
        const bool counters =
            m_store.isKey(node)
                ? m_store.keyInfo(node).type == KeyType::String || m_store.keyInfo(node).type == KeyType::List
                : stats.types[std::size_t(KeyType::String)] + stats.types[std::size_t(KeyType::List)] == stats.keys;
        if (counters)
            m_layouts.claim(node, library("flask-limiter"));
    }

    // In a store split on several delimiters, whether some of the node's children follow `delimiter`.
    bool childrenFollow(NodeId node, char delimiter) const
    {
        if (!m_store.delimiters().contains(delimiter) || !m_store.hasChildren(node))
            return false;
        bool any = false;
        m_store.forEachChild(node, [&](NodeId child) { any = any || m_store.joiner(child) == delimiter; });
        return any;
    }

    // Rack's and ActionDispatch's session stores: <prefix>:2::<sha256 of the session id> (strings).
    bool sessionDigestsBelow(NodeId node) const
    {
        const NodeId version = m_store.findChild(node, "2");
        const NodeId empty = version == keyspace::InvalidNode ? version : m_store.findChild(version, "");
        if (empty == keyspace::InvalidNode || !m_store.hasChildren(empty) ||
            m_store.stats(empty).types[std::size_t(KeyType::String)] != m_store.stats(empty).keys)
            return false;
        std::uint32_t digests = 0;
        m_store.forEachChild(empty, [&](NodeId child) {
            digests += m_store.segment(child).size() == 64 && shapeOfNode(m_shapes, m_store, child) == Shape::Hex;
        });
        return digests == m_store.stats(empty).childCount;
    }

    bool mostChildrenAreIdsOrAddresses(NodeId node) const
    {
        std::uint32_t ids = 0, children = 0;
        m_store.forEachChild(node, [&](NodeId child) {
            ++children;
            const QByteArrayView segment = m_store.segment(child);
            const bool addressGroup = segment.size() <= 4 && m_store.hasChildren(child) &&
                                      std::all_of(segment.begin(), segment.end(), isHexDigit);
            ids += addressGroup || isId(shapeOfNode(m_shapes, m_store, child));
        });
        return children > 0 && double(ids) >= 0.9 * double(children);
    }

    bool mostChildrenAre(NodeId node, Shape shape) const
    {
        std::uint32_t matching = 0, children = 0;
        m_store.forEachChild(node, [&](NodeId child) {
            ++children;
            matching += shapeOfNode(m_shapes, m_store, child) == shape;
        });
        return children > 0 && double(matching) >= 0.9 * double(children);
    }

    // @keyv/redis 4 and later prefix a key with `<namespace>::` and Keyv itself with `<namespace>:`, so its keys are
    // `<namespace>::<namespace>:<key>`: the namespace's name twice around an empty segment, strings below.
    bool isKeyvNamespace(NodeId node, QByteArrayView segment) const
    {
        if (segment.isEmpty() || m_store.isKey(node))
            return false;
        // Only the children after the primary delimiter: split on '/' too, `products/1-…` may share the node.
        const char primary = m_store.delimiter();
        const NodeId empty = m_store.findChild(node, "", primary);
        if (empty == keyspace::InvalidNode || childrenAfter(node, primary) != 1)
            return false;
        const NodeId again = m_store.findChild(empty, segment, primary);
        if (again == keyspace::InvalidNode || m_store.stats(empty).childCount != 1 || !m_store.hasChildren(again))
            return false;
        const keyspace::NamespaceStats stats = m_store.stats(empty);
        return stats.types[std::size_t(KeyType::String)] == stats.keys;
    }

    std::uint32_t childrenAfter(NodeId node, char delimiter) const
    {
        if (m_store.delimiters().isSingle())
            return m_store.stats(node).childCount;
        std::uint32_t count = 0;
        m_store.forEachChild(node, [&](NodeId child) { count += m_store.joiner(child) == delimiter; });
        return count;
    }

    // dogpile.cache's function_key_generator: `<module>:<function>|<arguments>`, a module path (`shop.catalogue`)
    // whose children are all strings named `<identifier>|…`.
    bool isDogpileModule(NodeId node, QByteArrayView segment) const
    {
        const auto moduleChar = [](char c) { return isLower(c) || isDigit(c) || c == '_' || c == '.'; };
        if (segment.isEmpty() || !isLower(segment.front()) || !std::all_of(segment.begin(), segment.end(), moduleChar))
            return false;
        const keyspace::NamespaceStats stats = m_store.stats(node);
        if (!m_store.hasChildren(node) || stats.keys != stats.childCount ||
            stats.types[std::size_t(KeyType::String)] != stats.keys)
            return false;
        bool all = true;
        m_store.forEachChild(node, [&](NodeId child) {
            const QByteArrayView key = m_store.segment(child);
            const qsizetype bar = key.indexOf('|');
            const auto identifier = [](char c) { return isLetter(c) || isDigit(c) || c == '_'; };
            all = all && bar > 0 && std::all_of(key.begin(), key.begin() + bar, identifier) && !isDigit(key.front());
        });
        return all;
    }

    bool isRailsCacheEntry(NodeId node, QByteArrayView segment) const
    {
        // Fragments (views/products/index) and versioned entries (products/1-20240310120000000000).
        const qsizetype slash = segment.indexOf('/');
        if (slash <= 0)
            return false;
        const bool strings = m_store.isKey(node)
                                 ? m_store.keyInfo(node).type == KeyType::String
                                 : m_store.stats(node).types[std::size_t(KeyType::String)] == m_store.stats(node).keys;
        if (!strings)
            return false;
        if (segment.startsWith("views/") && segment.size() > 6)
            return true;
        const QByteArrayView model = segment.first(slash);
        const QByteArrayView entry = segment.sliced(slash + 1);
        const qsizetype dash = entry.indexOf('-');
        const auto word = [](char c) { return isLower(c) || c == '_'; };
        return dash > 0 && std::all_of(model.begin(), model.end(), word) &&
               std::all_of(entry.begin(), entry.begin() + dash, isDigit) && entry.size() - dash - 1 >= 14 &&
               std::all_of(entry.begin() + dash + 1, entry.end(), isDigit);
    }

    // Django: KEY_PREFIX:VERSION:key. With the default empty prefix, every key starts with ':' and a
    // version number.
    void djangoPrefix(NodeId empty)
    {
        const keyspace::NamespaceStats& stats = m_store.stats(empty);
        if (!m_store.hasChildren(empty) || m_store.isKey(empty))
            return;
        bool versions = true;
        m_store.forEachChild(empty, [&](NodeId child) {
            const QByteArrayView version = m_store.segment(child);
            versions = versions && !version.isEmpty() && version.size() <= 3 &&
                       std::all_of(version.begin(), version.end(), isDigit) && m_store.hasChildren(child);
        });
        if (versions && stats.childCount <= 8) {
            m_layouts.claim(empty, library("django-cache"));
            m_store.forEachChild(empty, [&](NodeId version) { djangoSessions(version); });
        }
    }

    // The sessions of django.contrib.sessions.backends.cache (and cached_db) among the cache's keys.
    void djangoSessions(NodeId version)
    {
        m_store.forEachChild(version, [&](NodeId key) {
            if (m_store.segment(key).startsWith("django.contrib.sessions.cache") &&
                isKeyOfType(m_store, key, KeyType::String))
                m_layouts.claim(key, library("django-session"));
        });
    }

    // With a KEY_PREFIX, the keys Django itself writes name it: cache_page's and {% cache %}'s.
    void djangoVersion(NodeId version)
    {
        bool django = false;
        m_store.forEachChild(version, [&](NodeId child) {
            const QByteArrayView key = m_store.segment(child);
            django = django || key.startsWith("views.decorators.cache.") || key.startsWith("template.cache.");
        });
        if (!django)
            return;
        const NodeId prefix = m_store.parent(version);
        m_layouts.claim(prefix != Keyspace::root() && m_store.stats(prefix).childCount <= 8 ? prefix : version,
                        library("django-cache"));
        djangoSessions(version);
    }

    const Keyspace& m_store;
    const SetMembers& m_members;
    const SegmentShapes* m_shapes; // or none: each segment is classified when asked
    LibraryLayouts m_layouts;
    std::vector<NodeId> m_bullQueues;
};

} // namespace

std::span<const LibraryInfo> allLibraries()
{
    return Libraries;
}

const LibraryInfo* findLibrary(QByteArrayView id)
{
    const auto it = std::find_if(Libraries.begin(), Libraries.end(),
                                 [&](const LibraryInfo& library) { return QByteArrayView(library.id) == id; });
    return it == Libraries.end() ? nullptr : &*it;
}

LibraryLayouts LibraryLayouts::recognise(const Keyspace& store, const SetMembers& members, const SegmentShapes* shapes)
{
    return Recogniser(store, members, shapes).run();
}

std::vector<QByteArray> LibraryLayouts::keysToRead(const Keyspace& store)
{
    std::vector<QByteArray> keys;
    // Only the top level's bytes and those of a few words are read: the rest is a byte by segment id.
    const std::vector<bool> mayHoldSets =
        markSegments(store, [](QByteArrayView segment) { return segment == "queues"; });
    for (NodeId node = 1; node < store.nodeCount(); ++node) {
        if (!mayHoldSets[store.segmentId(node)] && store.parent(node) != Keyspace::root())
            continue;
        const QByteArrayView segment = store.segment(node);
        if (segment == "queues" && queueListsBeside(store, node) != keyspace::InvalidNode)
            keys.push_back(store.path(node));
        else if (store.parent(node) == Keyspace::root() && isLaravelCachePrefix(segment) && store.hasChildren(node))
            for (const NodeId sample : stringSamples(store, node))
                keys.push_back(store.path(sample));
    }
    return keys;
}

const LibraryInfo* LibraryLayouts::libraryOf(const Keyspace& store, NodeId node) const
{
    if (m_claims.empty())
        return nullptr;
    for (NodeId at = node; at != Keyspace::root(); at = store.parent(at)) {
        if (const LibraryInfo* library = claimOf(at))
            return library;
    }
    return nullptr;
}

std::vector<const LibraryInfo*> LibraryLayouts::libraries() const
{
    std::vector<const LibraryInfo*> out;
    for (const LibraryInfo& library : Libraries) {
        if (std::any_of(m_claims.begin(), m_claims.end(), [&](const auto& claim) { return claim.second == &library; }))
            out.push_back(&library);
    }
    return out;
}

const LibraryInfo* LibraryLayouts::claimOf(NodeId node) const
{
    const auto it = m_claims.find(node);
    return it == m_claims.end() ? nullptr : it->second;
}

std::vector<LibraryLayouts::Subtree> LibraryLayouts::subtrees(const Keyspace& store) const
{
    std::vector<Subtree> out;
    for (const auto& [node, library] : m_claims) {
        NodeId above = keyspace::InvalidNode;
        for (NodeId at = store.parent(node); at != Keyspace::root() && above == keyspace::InvalidNode;
             at = store.parent(at))
            above = claimOf(at) ? at : keyspace::InvalidNode;
        if (above != keyspace::InvalidNode && claimOf(above) == library)
            continue; // inside its own library's subtree
        out.push_back({node, library, above});
    }
    std::sort(out.begin(), out.end(), [](const Subtree& a, const Subtree& b) { return a.node < b.node; });
    return out;
}

std::vector<std::pair<NodeId, const LibraryInfo*>> LibraryLayouts::outermostClaims(const Keyspace& store) const
{
    std::vector<std::pair<NodeId, const LibraryInfo*>> out;
    for (const auto& [node, library] : m_claims) {
        if (store.parent(node) == Keyspace::root() || !libraryOf(store, store.parent(node)))
            out.emplace_back(node, library);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace keylens::lint
