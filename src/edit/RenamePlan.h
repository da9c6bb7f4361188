#pragma once

#include "keyspace/Keyspace.h"
#include "redis/Error.h"

#include <QByteArray>

#include <vector>

namespace keylens::edit {

// A reviewed rename plan: old key → new key. Its file is a redis-cli script, one `RENAMENX "old" "new"` per line
// with redis-cli's quoting (\xhh for bytes that are not printable), so a person can read and edit it, run it with
// `redis-cli < plan.redis`, or hand it to `keylens-cli rename --plan`, which adds the preview, the backup and the
// progress.
struct RenamePlan
{
    std::vector<QByteArray> from;
    std::vector<QByteArray> to;
};

QByteArray formatRenameScript(const RenamePlan& plan);

// Which renames cannot land: the new name is a key already (in the store the plan came from), or an earlier rename
// of the plan takes it (`cache_user_1` and `CACHE:USER:1` both becoming `cache:user:1`). RENAMENX refuses them, so
// the keys stay as they are; a preview says so first.
std::vector<bool> renameCollisions(const keyspace::Keyspace& store, const std::vector<QByteArray>& to);
// Reads a script of RENAMENX (or RENAME) lines; blank lines are skipped. An error names the first line that is not one.
redis::Result<RenamePlan> parseRenameScript(const QByteArray& script);

// Splits one line into arguments the way redis-cli does: bare words, "double quoted" with \n \r \t \a \b \\ \" and
// \xhh escapes, and 'single quoted' with \' only. Nothing for unbalanced quotes.
std::optional<std::vector<QByteArray>> splitRedisCliLine(QByteArrayView line);
// The bytes of text written the way escapeLikeRedisCli writes them (\xff, \n, \"): nothing when it does not parse.
std::optional<QByteArray> unescapeRedisCli(QByteArrayView escaped);

} // namespace keylens::edit
