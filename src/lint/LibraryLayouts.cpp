#include "lint/LibraryLayouts.h"

#include "lint/Characters.h"
#include "lint/SegmentShape.h"

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
    LibraryInfo{"bullmq", "BullMQ / Bull",
                "<prefix>:<queue>:id (string) beside its state keys: wait, active, paused (lists); delayed, "
                "prioritized, completed, failed (sorted sets); meta (hash); events (stream)",
                LibraryRole::Queue},
    LibraryInfo{"sidekiq", "Sidekiq",
                "queues (set) naming queue:<name> (lists), with schedule, retry, dead (sorted sets) or processes (set)",
                LibraryRole::Queue},
    LibraryInfo{"resque", "Resque",
                "resque:queues (set) naming resque:queue:<name> (lists), workers (set), failed (list)",
                LibraryRole::Queue},
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
    LibraryInfo{"django-cache", "Django cache",
                "<KEY_PREFIX>:<version>:<key>: an empty prefix and version numbers (:1:…), or the keys of "
                "cache_page (views.decorators.cache.…) and {% cache %} (template.cache.…)",
                LibraryRole::Cache},
    LibraryInfo{"socket.io", "Socket.IO Redis streams adapter",
                "socket.io (stream), sio:session:<id> (strings with a TTL)", LibraryRole::PubSub},
    LibraryInfo{"rack-attack", "Rack::Attack",
                "rack::attack:<period number>:<throttle>:<discriminator> (counters with a TTL)",
                LibraryRole::RateLimit},
    LibraryInfo{"express-rate-limit", "express-rate-limit (rate-limit-redis)", "rl:<client> (counters with a TTL)",
                LibraryRole::RateLimit},
    LibraryInfo{"spring-session", "Spring Session", "spring:session:sessions:<id> (hashes)", LibraryRole::Session},
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
    }
    return "";
}

bool shouldExpire(LibraryRole role)
{
    return role == LibraryRole::Cache || role == LibraryRole::Session || role == LibraryRole::Lock;
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
bool flatIdsBelow(const Keyspace& store, NodeId node)
{
    const keyspace::NamespaceStats& stats = store.stats(node);
    if (stats.keys != stats.childCount)
        return false;
    std::uint32_t ids = 0;
    store.forEachChild(node, [&](NodeId child) { ids += isId(shapeOf(store.segment(child))) ? 1 : 0; });
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

class Recogniser
{
public:
    Recogniser(const Keyspace& store, const SetMembers& members)
        : m_store(store)
        , m_members(members)
    {}

    LibraryLayouts run()
    {
        // One pass over the nodes picks the few whose name a layout starts from.
        for (NodeId node = 1; node < m_store.nodeCount(); ++node) {
            const QByteArrayView segment = m_store.segment(node);
            if (segment == "id")
                bullQueue(node);
            else if (segment == "queues")
                workQueues(node);
            else if (segment == "rq")
                rq(node);
            else if (segment == "attack")
                rackAttack(node);
            else if (segment == "session")
                sessions(node);
            else if (m_store.parent(node) == Keyspace::root())
                topLevel(node, segment);
            else if (segment.size() <= 3 && !segment.isEmpty() && std::all_of(segment.begin(), segment.end(), isDigit))
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
        const auto states = std::count_if(States.begin(), States.end(), [&](const State& state) {
            return hasKey(m_store, queue, state.segment, state.type);
        });
        if (states < 2)
            return;
        m_layouts.claim(queue, library("bullmq"));
        m_bullQueues.push_back(queue);
    }

    void bullPrefixes()
    {
        // `bull:` holds nothing but queues in most apps: the prefix is then the library's as a whole.
        std::vector<NodeId> prefixes;
        for (const NodeId queue : m_bullQueues)
            prefixes.push_back(m_store.parent(queue));
        std::sort(prefixes.begin(), prefixes.end());
        prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
        for (const NodeId prefix : prefixes)
            claimWholeWhenAllClaimed(prefix, library("bullmq"));
    }

    void workQueues(NodeId queuesNode)
    {
        const NodeId owner = m_store.parent(queuesNode);
        const NodeId queue = queueListsBeside(m_store, queuesNode);
        if (queue == keyspace::InvalidNode)
            return;
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
                             [&](NodeId child) { periods += shapeOf(m_store.segment(child)) == Shape::Integer; });
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
        const LibraryInfo* which = nullptr;
        if (segmentIs(m_store, owner, "sio") && m_store.hasChildren(session) &&
            allOfTypeMostlyExpiring(m_store, session, KeyType::String))
            which = library("socket.io");
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
                flatIdsBelow(m_store, node) && expressSessionIdsBelow(m_store, node))
                m_layouts.claim(node, library("connect-redis"));
        } else if (segment == "rl") {
            const keyspace::NamespaceStats& stats = m_store.stats(node);
            if (m_store.hasChildren(node) && stats.keys == stats.childCount &&
                allOfTypeMostlyExpiring(m_store, node, KeyType::String))
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
            // ActionDispatch's cache store: _session_id:2::<sha256 of the session id>
            const NodeId version = m_store.findChild(node, "2");
            const NodeId empty = version == keyspace::InvalidNode ? version : m_store.findChild(version, "");
            if (empty != keyspace::InvalidNode && m_store.hasChildren(empty) &&
                m_store.stats(empty).types[std::size_t(KeyType::String)] == m_store.stats(empty).keys) {
                std::uint32_t digests = 0;
                m_store.forEachChild(empty, [&](NodeId child) {
                    digests += m_store.segment(child).size() == 64 && shapeOf(m_store.segment(child)) == Shape::Hex;
                });
                if (digests == m_store.stats(empty).childCount)
                    m_layouts.claim(node, library("rails-session"));
            }
        } else if (segment.isEmpty()) {
            djangoPrefix(node);
        } else if (isRailsCacheEntry(node, segment)) {
            m_layouts.claim(node, library("rails-cache"));
        }
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
        if (versions && stats.childCount <= 8)
            m_layouts.claim(empty, library("django-cache"));
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
    }

    const Keyspace& m_store;
    const SetMembers& m_members;
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

LibraryLayouts LibraryLayouts::recognise(const Keyspace& store, const SetMembers& members)
{
    return Recogniser(store, members).run();
}

std::vector<QByteArray> LibraryLayouts::setsToRead(const Keyspace& store)
{
    std::vector<QByteArray> sets;
    for (NodeId node = 1; node < store.nodeCount(); ++node) {
        if (store.segment(node) == "queues" && queueListsBeside(store, node) != keyspace::InvalidNode)
            sets.push_back(store.path(node));
    }
    return sets;
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
