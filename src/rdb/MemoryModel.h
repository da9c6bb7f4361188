#pragma once

#include <cstdint>

namespace keylens::rdb::memory {

// What MEMORY USAGE would answer for a key once redis-server 7 loaded it, worked out from what the file says: the
// server's structures on a 64-bit build (robj 16 bytes, dictEntry 24, dict 56, quicklist 40 and its nodes 32,
// skiplist nodes with their random levels) and jemalloc's size classes. An estimate: the file does not say how full
// a hash table was when saved, nor which sizes a listpack's allocations rounded to.

// jemalloc's size class for an allocation of `bytes`.
std::uint64_t allocation(std::uint64_t bytes);
// An sds string of `length` bytes as sdsnewlen() allocates it (the smallest header that holds the length).
std::uint64_t sds(std::uint64_t length);
// The key's own cost: its sds and its entry in the database's dict.
std::uint64_t key(std::uint64_t length);
// A string value: an integer (robj only), embedded with its robj up to 44 bytes, or an robj and an sds.
std::uint64_t string(std::uint64_t length, bool integer);
// A value in one packed allocation (listpack, intset): robj and the blob.
std::uint64_t packed(std::uint64_t blobBytes);
// A hash table of `elements` whose entries (each a dictEntry and its sds strings) took `entryBytes`.
std::uint64_t hashTable(std::uint64_t elements, std::uint64_t entryBytes);
// A sorted set as a skiplist and a dict, its members' sds strings taking `memberBytes`.
std::uint64_t skiplist(std::uint64_t elements, std::uint64_t memberBytes);
// A list as a quicklist whose nodes' entries took `nodeBytes` (each a listpack or a plain element).
std::uint64_t quicklist(std::uint64_t nodes, std::uint64_t nodeBytes);
// A stream: its listpacks (`listpackBytes` in all, allocated) and the radix tree over them. The server allocates a
// stream's newest listpack at stream-node-max-bytes (4096 by default) and fills it: the caller counts it so.
std::uint64_t stream(std::uint64_t listpacks, std::uint64_t listpackBytes);
inline constexpr std::uint64_t StreamNodeBytes = 4096;
// A stream's consumer group with `pending` entries delivered and not acknowledged, and one of its consumers.
std::uint64_t consumerGroup(std::uint64_t pending);
std::uint64_t consumer(std::uint64_t nameLength, std::uint64_t pending);

} // namespace keylens::rdb::memory
