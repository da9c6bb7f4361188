#pragma once

#include "lint/LibraryLayouts.h"

#include <QByteArray>
#include <QByteArrayView>

#include <optional>

namespace keylens::lint {

// A word of a key that says what its keys are for: `cache`, `session`, `lock`, `tmp`, `otp`, `throttle`…, and
// `queue` or `jobs` for keys that live as long as their work.
struct RoleWord
{
    LibraryRole role;
    QByteArray word; // as the key spells it
};

// The role the words of a pattern (`shopfront-cache-<hex>`, `api:RateLimit:<ip>`) say its keys have. Words are
// whole: split at any byte that is not a letter and where camelCase starts one (`userCache` is `user` and `Cache`);
// `<placeholders>` are ids, not words. Any case. The most specific role wins: a queue's, then a lock's, a session's,
// a rate limit's, a temporary key's, a cache's (`django.contrib.sessions.cache` holds sessions).
std::optional<RoleWord> roleOfWords(QByteArrayView pattern);

} // namespace keylens::lint
