#pragma once

#include "lint/Linter.h"

#include <QByteArrayList>

namespace keylens::lint {

// What a finding rests on, in short strings, for every finding: the evidence the rule gave it ("word: cache",
// "value: pickle", "ttl-contrast: 400 of 1,200 keys in this pattern expire"), or else what its detail says, named by
// where the rule looked: the key's own name ("name: User"), the keys beside it ("siblings: detail beside info"), its
// size, its expiry, its access, or the volatile namespace it sits in ("word: cache", for missing-ttl).
QByteArrayList evidenceOf(const Finding& finding);

// What to do about a finding: its rule's fix, or where the finding's evidence says the rule's would be wrong, the one
// that is true for it (an index of keys that expire is pruned, or given a TTL as long as its members', refreshed as
// they are added: a TTL of its own alone would drop it before the entries it lists).
QByteArrayView fixOf(const Finding& finding);

} // namespace keylens::lint
