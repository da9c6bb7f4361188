#pragma once

#include "lint/Linter.h"

#include <QByteArrayList>

namespace keylens::lint {

// What a finding rests on, in short strings, for every finding: the evidence the rule gave it ("word: cache",
// "value: pickle", "ttl-contrast: 400 of 1,200 keys in this pattern expire"), or else what its detail says, named by
// where the rule looked: the key's own name ("name: User"), the keys beside it ("siblings: detail beside info"), its
// size, its expiry, its access, or the volatile namespace it sits in ("word: cache", for missing-ttl).
QByteArrayList evidenceOf(const Finding& finding);

} // namespace keylens::lint
