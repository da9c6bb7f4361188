#pragma once

#include "keyspace/Keyspace.h"

#include <QByteArrayList>
#include <QByteArrayView>
#include <QHash>

#include <span>
#include <unordered_map>
#include <vector>

namespace keylens::lint {

class SegmentShapes;

// What keys are for, a library's (its layout says) or any application's (their evidence says, RoleEvidence.h): it
// decides which rules apply to them. A cache, a session, a lock or a temporary key that never expires is a leak
// (missing-ttl); a queue's keys live as long as its jobs do and never need a TTL; a rate limiter's windows expire
// together by design (not an expiry avalanche).
enum class LibraryRole { Queue, Cache, Session, RateLimit, Lock, PubSub, Scheduler, Temporary };
// "queue", "cache", "session", "rate limit", "lock", "pub/sub", "scheduler", "temporary" (an interface: the JSON's
// "role").
const char* roleName(LibraryRole role);
// Keys of this role should all expire.
bool shouldExpire(LibraryRole role);

// A library whose key layout Keylens recognises. `id` is an interface: the JSON's "library" field and
// profiles name a library by it.
struct LibraryInfo
{
    const char* id;     // "bullmq", "sidekiq", …
    const char* name;   // "BullMQ / Bull", for people
    const char* layout; // the documented keys the recognition looks for, one line
    LibraryRole role;
};

std::span<const LibraryInfo> allLibraries();
const LibraryInfo* findLibrary(QByteArrayView id);

// The parts of a keyspace that libraries wrote: job queues, sessions, caches and rate limiters with
// documented layouts (BullMQ, Sidekiq, Celery, RQ, …). Recognition needs each layout's evidence, its
// keys' names *and* types, never a prefix alone: `queue:` lists are Sidekiq's only beside the `queues`
// set that Sidekiq keeps of them; `sess:` keys are connect-redis's only when they are strings with ids
// and TTLs. A keyspace that no library wrote gets no labels.
//
// A claim is a node (a namespace, or a key without a delimiter such as `celery-task-meta-<uuid>`); the
// whole subtree below it is the library's. Built after a scan from the finished store; reads only.
// The members of some sets and the first bytes of some strings (one element), by key, as the server gave them
// (LibraryLayouts::keysToRead). A key missing here was not read: denied, gone since the scan, too big, or no server
// to ask.
using SetMembers = QHash<QByteArray, QByteArrayList>;

class LibraryLayouts
{
public:
    LibraryLayouts() = default;
    // `members`: what names and types cannot tell, read from the server after the scan (keysToRead()).
    // `shapes`, when given, holds the store's segments classified already (SegmentShapes.h).
    static LibraryLayouts recognise(const keyspace::Keyspace& store, const SetMembers& members = {},
                                    const SegmentShapes* shapes = nullptr);
    // The keys whose contents recognise() wants to see (SetMembers: a set's members, a string's first bytes as one
    // element): Sidekiq's and Resque's `queues` sets, which name their `queue:<name>` lists (a `queue:` namespace
    // of lists beside a set is theirs only when the set names them); and a few strings below a `<app>_cache_` prefix,
    // which are Laravel's when PHP serialized them. Locks are named by the application and their tokens are random
    // bytes anyone may write: a value's shape gives them a role (RoleEvidence.h), never a library's name.
    static std::vector<QByteArray> keysToRead(const keyspace::Keyspace& store);

    bool isEmpty() const { return m_claims.empty(); }
    // The library that wrote the node: its own claim or its nearest claimed ancestor's.
    const LibraryInfo* libraryOf(const keyspace::Keyspace& store, keyspace::NodeId node) const;
    // Only the node's own claim (nothing for a node inside a claimed subtree).
    const LibraryInfo* claimOf(keyspace::NodeId node) const;
    // The claims that no claimed ancestor holds, by node id: the subtrees that the libraries wrote.
    std::vector<std::pair<keyspace::NodeId, const LibraryInfo*>> outermostClaims(const keyspace::Keyspace& store) const;

    // The subtrees each library wrote: its claims that no claimed ancestor of the same library holds, each with the
    // nearest claim above it of another library (InvalidNode for none). Django's sessions are keys inside its cache's
    // subtree: a library's keys are its subtrees' less those nested in them.
    struct Subtree
    {
        keyspace::NodeId node;
        const LibraryInfo* library;
        keyspace::NodeId within;
    };
    std::vector<Subtree> subtrees(const keyspace::Keyspace& store) const;

    // The libraries recognised, each once, in catalogue order.
    std::vector<const LibraryInfo*> libraries() const;

    void claim(keyspace::NodeId node, const LibraryInfo* library) { m_claims[node] = library; }
    void unclaim(keyspace::NodeId node) { m_claims.erase(node); }

private:
    std::unordered_map<keyspace::NodeId, const LibraryInfo*> m_claims;
};

} // namespace keylens::lint
