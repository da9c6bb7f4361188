#include "demo/DemoKeyspace.h"

#include "demo/PipelineWriter.h"
#include "redis/Connection.h"

#include <QByteArray>

#include <array>
#include <cstdio>
#include <functional>
#include <vector>

namespace keylens::demo {

namespace {

// splitmix64: fast, and good enough to make ids and values look random yet reproducible.
class Random
{
public:
    explicit Random(std::uint64_t seed)
        : m_state(seed)
    {}
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::uint64_t below(std::uint64_t bound) { return next() % bound; }
    bool chance(double probability) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < probability; }

private:
    std::uint64_t m_state;
};

QByteArray number(std::uint64_t value)
{
    return QByteArray::number(value);
}

QByteArray randomString(Random& random, QByteArrayView alphabet, int length)
{
    QByteArray out(length, Qt::Uninitialized);
    for (int i = 0; i < length; ++i)
        out[i] = alphabet[static_cast<qsizetype>(random.below(static_cast<std::uint64_t>(alphabet.size())))];
    return out;
}

QByteArray hex(Random& random, int digits)
{
    return randomString(random, "0123456789abcdef", digits);
}

// Session ids and API tokens: base64url-ish.
QByteArray token(Random& random, int length)
{
    return randomString(random, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", length);
}

QByteArray uuid(Random& random)
{
    return hex(random, 8) + '-' + hex(random, 4) + '-' + hex(random, 4) + '-' + hex(random, 4) + '-' + hex(random, 12);
}

QByteArray pick(Random& random, std::initializer_list<const char*> choices)
{
    return QByteArray(*(choices.begin() + random.below(choices.size())));
}

QByteArray seconds(std::uint64_t base, std::uint64_t jitter, Random& random)
{
    return number(base + (jitter ? random.below(jitter) : 0));
}

QByteArray userJson(Random& random, std::uint64_t id)
{
    char buffer[256];
    std::snprintf(buffer, sizeof buffer,
                  R"({"id":%llu,"name":"User %llu","email":"user%llu@example.com","plan":"%s","created_at":%llu})",
                  static_cast<unsigned long long>(id), static_cast<unsigned long long>(id),
                  static_cast<unsigned long long>(id), random.chance(0.2) ? "pro" : "free",
                  static_cast<unsigned long long>(1600000000 + random.below(130000000)));
    return buffer;
}

// Demo writes build their arguments with QByteArray concatenation; this takes them as they come.
void put(PipelineWriter& writer, std::initializer_list<QByteArray> arguments)
{
    std::vector<QByteArrayView> views(arguments.begin(), arguments.end());
    writer.command(views);
}

// One kind of key, generated `count` times with index 0..count-1. `index` keeps keys unique.
struct Family
{
    double weight;
    std::function<void(PipelineWriter&, Random&, std::uint64_t index)> write;
};

std::vector<Family> families()
{
    using W = PipelineWriter;
    using R = Random;
    return {
        // The well-kept part of the app.
        {14,
         [](W& w, R& r, std::uint64_t i) {
             const QByteArray id = number(1000 + i);
             put(w, {"HSET", "user:" + id + ":profile", "name", "User " + id, "email", "user" + id + "@example.com",
                     "plan", r.chance(0.2) ? "pro" : "free", "created_at", number(1600000000 + r.below(130000000))});
         }},
        {6,
         [](W& w, R& r, std::uint64_t i) {
             put(w,
                 {"HSET", "user:" + number(1000 + i) + ":settings", "theme", pick(r, {"dark", "light", "system"}),
                  "lang", pick(r, {"en", "de", "fr", "ja", "pt-BR"}), "notifications", r.chance(0.7) ? "on" : "off"});
         }},
        {4,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SADD", "user:" + number(1000 + i) + ":sessions", hex(r, 32), hex(r, 32)});
         }},
        {3,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"RPUSH", "user:" + number(1000 + i) + ":notifications", "n:" + number(r.below(1000000)),
                     "n:" + number(r.below(1000000)), "n:" + number(r.below(1000000))});
         }},
        {3,
         [](W& w, R& r, std::uint64_t i) {
             std::vector<QByteArray> args = {"ZADD", "feed:user:" + number(1000 + i)};
             const int posts = 10 + static_cast<int>(r.below(40));
             for (int p = 0; p < posts; ++p) {
                 args.push_back(number(1700000000 + r.below(30000000)));
                 args.push_back("post:" + number(r.below(5000000)));
             }
             std::vector<QByteArrayView> views(args.begin(), args.end());
             w.command(views);
         }},
        {12,
         [](W& w, R& r, std::uint64_t) {
             put(w, {"SET", "session:" + hex(r, 32), userJson(r, 1000 + r.below(100000)), "EX", seconds(1800, 300, r)});
         }},
        {5,
         [](W& w, R& r, std::uint64_t) { // connect-redis (express-session) style
             put(w, {"SET", "sess:" + token(r, 32),
                     R"({"cookie":{"originalMaxAge":86400000,"httpOnly":true,"path":"/"},"passport":{"user":)" +
                         number(r.below(100000)) + "}}",
                     "EX", seconds(86400, 0, r)});
         }},
        {2,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", "cache:api:users:list:page:" + number(i + 1),
                     "[" + userJson(r, i) + "," + userJson(r, i + 1) + "]", "EX", "300"});
         }},
        {8,
         [](W& w, R& r, std::uint64_t) {
             // A query cache where somebody forgot the TTL on a third of the writes. The others have a
             // jittered TTL (10 to 15 minutes), so they do not all expire in one moment.
             const QByteArray key = "cache:db:query:" + hex(r, 40);
             const QByteArray value = token(r, 80 + static_cast<int>(r.below(600)));
             if (r.chance(0.3))
                 put(w, {"SET", key, value});
             else
                 put(w, {"SET", key, value, "EX", seconds(600, 300, r)});
         }},
        {2,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", "CACHE:USER:" + number(1000 + i), userJson(r, 1000 + i)});
         }},
        {2,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", "cache_user_" + number(1000 + i), userJson(r, 1000 + i), "EX", "3600"});
         }},
        {1.5,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"HSET", "userSettings_" + number(1000 + i), "theme", pick(r, {"dark", "light"}), "tz", "UTC"});
         }},
        {1,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"HSET", number(1000 + i) + ":user:settings", "theme", pick(r, {"dark", "light"})});
         }},
        {5,
         [](W& w, R& r, std::uint64_t i) { // BullMQ job hashes
             put(w, {"HSET", "bull:email:" + number(i + 1), "name", "send-welcome", "data",
                     R"({"to":"user)" + number(r.below(100000)) + R"(@example.com","template":"welcome"})", "opts",
                     R"({"attempts":3,"backoff":{"type":"exponential","delay":1000}})", "timestamp",
                     number(1700000000000ULL + r.below(1000000000)), "attemptsMade", number(r.below(3))});
         }},
        {2,
         [](W& w, R& r, std::uint64_t i) {
             put(w,
                 {"HSET", "queue:email:job:" + number(i + 1), "to", "user" + number(r.below(100000)) + "@example.com",
                  "status", pick(r, {"pending", "sent", "failed"})});
         }},
        {4,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", "rate:limit:api:user:" + number(1000 + i), number(r.below(100)), "EX", seconds(60, 0, r)});
         }},
        {2,
         [](W& w, R& r, std::uint64_t i) {
             const QByteArray ip =
                 "10." + number((i >> 16) & 255) + '.' + number((i >> 8) & 255) + '.' + number(i & 255);
             put(w, {"SET", "rate:limit:api:ip:" + ip, number(r.below(100)), "EX", "60"});
         }},
        {0.5,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", "lock:order:process:" + number(5000 + i), "worker-" + number(r.below(64)), "EX", "120"});
         }},
        {4,
         [](W& w, R& r, std::uint64_t) {
             const QByteArray key = "cart:" + uuid(r);
             put(w, {"HSET", key, "sku:" + number(r.below(90000)), number(1 + r.below(3)), "updated_at",
                     number(1700000000 + r.below(30000000))});
             // The TTL comes in a second command, as many apps do it, and one code path forgot it.
             if (!r.chance(0.25))
                 put(w, {"EXPIRE", key, seconds(7 * 86400, 3600, r)});
         }},
        {5,
         [](W& w, R& r, std::uint64_t i) {
             const QByteArray sku = "SKU" + number(100000 + i / 2);
             if (i % 2 == 0)
                 put(w, {"HSET", "product:" + sku, "name", "Product " + sku, "price", number(1 + r.below(500)) + ".99",
                         "stock", number(r.below(1000))});
             else
                 put(w, {"SADD", "product:" + sku + ":categories", pick(r, {"electronics", "audio", "books"}),
                         pick(r, {"sale", "new", "gift"})});
         }},
        {4,
         [](W& w, R& r, std::uint64_t i) { // an id in the middle of the key
             put(w, {"HSET", "order:" + number(10000 + i) + ":detail", "user", number(1000 + r.below(100000)), "total",
                     number(r.below(50000)), "status", pick(r, {"paid", "shipped", "delivered", "refunded"})});
         }},
        {3,
         [](W& w, R& r, std::uint64_t i) { // timestamps in key names
             char stamp[32];
             const std::uint64_t t = i * 7;
             std::snprintf(stamp, sizeof stamp, "2025:01:%02llu:%02llu:%02llu:%02llu",
                           static_cast<unsigned long long>(1 + (t / 86400) % 28),
                           static_cast<unsigned long long>((t / 3600) % 24),
                           static_cast<unsigned long long>((t / 60) % 60), static_cast<unsigned long long>(t % 60));
             put(w, {"SET", "log:" + QByteArray(stamp) + ":request:" + number(i),
                     "GET /api/v1/items 200 " + number(r.below(900)) + "ms"});
         }},
        {1,
         [](W& w, R& r, std::uint64_t i) { // data in the key name
             put(w, {"SET", "user:" + number(1000 + i) + ":plan:" + (r.chance(0.2) ? "pro" : "free"), "1"});
         }},
        {1.5,
         [](W& w, R& r, std::uint64_t i) { // far too deep
             put(w,
                 {"SET", "app:prod:service:auth:user:" + number(1000 + i) + ":session:" + hex(r, 12) + ":token:access",
                  token(r, 64), "EX", seconds(900, 60, r)});
         }},
        {1.5,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", "u:p:c:" + number(1000 + i), userJson(r, 1000 + i)});
         }},
        {3,
         [](W& w, R& r, std::uint64_t i) {
             const QByteArray tenant = pick(r, {"acme", "globex", "initech"});
             put(w,
                 {"HSET", "tenant:" + tenant + ":user:" + number(1000 + i) + ":profile", "name", "User " + number(i)});
         }},
        {2,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"HSET", QByteArray(i % 3 == 0 ? "staging" : "prod") + ":user:" + number(1000 + i) + ":profile",
                     "name", "User " + number(i), "email", "u" + number(i) + "@example.com", "seen",
                     number(r.below(1000))});
         }},
        {0.5,
         [](W& w, R& r, std::uint64_t i) { // one-time passwords: expire within a minute
             put(w, {"SET", "otp:+1555" + number(1000000 + i), number(100000 + r.below(900000)), "EX",
                     seconds(30, 25, r)});
         }},
        {0.5,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", number(10'000'000 + i), userJson(r, i)});
         }},
        {1,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", "temp:import:" + number(i), token(r, 120)});
         }},
        {2,
         [](W& w, R& r, std::uint64_t i) {
             put(w, {"SET", "counter:pageviews:article:" + number(i), number(r.below(100000))});
         }},
        {0.5,
         [](W& w, R& r, std::uint64_t i) { // thumbnails: a few big strings, none with a TTL
             put(w, {"SET", "img:thumb:" + number(i), token(r, 2000 + static_cast<int>(r.below(14000)))});
         }},
    };
}

// Keys every demo has once: big keys, queues of popular libraries, placeholders, odd and binary names.
std::vector<std::function<void(PipelineWriter&, Random&)>> fixedKeys()
{
    using W = PipelineWriter;
    using R = Random;
    const auto list = [](QByteArray key, int items, const char* prefix) {
        return [key, items, prefix](W& w, R& r) {
            for (int start = 0; start < items; start += 500) {
                std::vector<QByteArray> args = {"RPUSH", key};
                for (int i = start; i < std::min(items, start + 500); ++i)
                    args.push_back(QByteArray(prefix) + number(r.below(10000000)));
                std::vector<QByteArrayView> views(args.begin(), args.end());
                w.command(views);
            }
        };
    };
    const auto zset = [](QByteArray key, int members) {
        return [key, members](W& w, R& r) {
            for (int start = 0; start < members; start += 500) {
                std::vector<QByteArray> args = {"ZADD", key};
                for (int i = start; i < std::min(members, start + 500); ++i) {
                    args.push_back(number(r.below(1000000)));
                    args.push_back("player:" + number(i));
                }
                std::vector<QByteArrayView> views(args.begin(), args.end());
                w.command(views);
            }
        };
    };
    const auto hash = [](QByteArray key, int fields, const char* fieldPrefix) {
        return [key, fields, fieldPrefix](W& w, R& r) {
            for (int start = 0; start < fields; start += 500) {
                std::vector<QByteArray> args = {"HSET", key};
                for (int i = start; i < std::min(fields, start + 500); ++i) {
                    args.push_back(QByteArray(fieldPrefix) + number(i));
                    args.push_back(number(r.below(1000000)));
                }
                std::vector<QByteArrayView> views(args.begin(), args.end());
                w.command(views);
            }
        };
    };
    const auto set = [](QByteArray key, int members) {
        return [key, members](W& w, R&) {
            for (int start = 0; start < members; start += 500) {
                std::vector<QByteArray> args = {"SADD", key};
                for (int i = start; i < std::min(members, start + 500); ++i)
                    args.push_back(number(1000 + i));
                std::vector<QByteArrayView> views(args.begin(), args.end());
                w.command(views);
            }
        };
    };
    const auto stream = [](QByteArray key, int entries) {
        return [key, entries](W& w, R& r) {
            for (int i = 0; i < entries; ++i)
                put(w, {"XADD", key, "*", "order", number(r.below(1000000)), "event",
                        pick(r, {"created", "paid", "shipped"}), "amount", number(r.below(50000))});
        };
    };
    const auto string = [](QByteArray key, QByteArray value, const char* ttl = nullptr) {
        return [key, value, ttl](W& w, R&) {
            if (ttl)
                put(w, {"SET", key, value, "EX", ttl});
            else
                put(w, {"SET", key, value});
        };
    };
    return {
        list("queue:email:pending", 6000, "job:"), // a big list: over 5,000 elements
        list("queue:email:processing", 3, "job:"),
        list("queue:email:failed", 120, "job:"),
        list("bull:email:wait", 800, ""),
        zset("bull:email:completed", 2000),
        string("bull:email:id", "250000"),
        hash("bull:email:meta", 4, "opt"),
        list("queue:default", 40, "{\"class\":\"HardWorker\",\"jid\":\""), // Sidekiq
        string("stat:processed", "981723"),
        string("stat:failed", "1204"),
        list("celery", 25, "{\"task\":\"tasks.add\",\"id\":\""), // Celery's default queue
        set("_kombu.binding.celery", 1),
        zset("leaderboard:global", 20000), // big
        zset("leaderboard:weekly:2024-W10", 500),
        stream("events:orders", 3000),
        stream("events:audit", 400),
        hash("feature:flags", 40, "flag_"),
        hash("config:app", 12, "setting_"),
        hash("config:app:v2", 12, "setting_"),
        hash("user:index:email", 8000, "user"), // big hash
        set("users:all", 10000),                // big set
        string("key1", "value1"),
        string("test", "hello"),
        string("tmp", "x"),
        string("foo", "bar"),
        string("asdf", "1"),
        string("mykey", "{}"),
        string("12345", "{\"orphan\":true}"),
        string("cache:report:monthly", QByteArray(64 * 1024, 'r')), // big string, no TTL
        string("cache:homepage", QByteArray(12 * 1024, 'h'), "600"),
        string(QByteArray("bin:\xff\xfe\x00\x01", 8), "binary key"),
        string(QByteArray("session:\xc3\x28-not-utf8"), "invalid UTF-8 in the name"),
        string("key with spaces", "spaces"),
        string("email:john@example.com", "data in the key name"),
        string("path/like/key", "slashes"),
        string("tab\tkey", "a tab"),
        string("line1\nline2", "a newline"),
        string("\"quoted\"", "quotes"),
        string("用户:1001:资料", "unicode segments"),
        string("emoji:🚀:launch", "emoji"),
        string("User:1001", "mixed case"),
        string("User:1001:Profile", "mixed case"),
        string("user_1001", "underscore"),
        string("{user1000}:cart", "cluster hash tag"),
        string("cache:render:" + QByteArray(500, 'q'), "a long key", "3600"),
        string("blob:name:" + QByteArray(16 * 1024, 'k'), "a 16 KB key name"),
        string(":leading:delimiter", "empty first segment"),
        string("trailing:delimiter:", "empty last segment"),
        string("double::delimiter", "empty middle segment"),
        string("pageviews:20240310", "18234"),
        string("pageviews:202403", "501223"),
        string("pageviews:2024", "9912731"),
        string("maintenance", "off"),
        string("deploy:last", "2024-03-10T12:00:00Z"),
        string("lock:cron:nightly", "host-3", "45"),
    };
}

// Namespaces that a real keyspace would not have touched in weeks: request logs, an import's leftovers, thumbnails
// and a legacy layout. None has a TTL (RESTORE with TTL 0 keeps it so).
constexpr std::array<const char*, 4> ColdPatterns = {"log:*", "temp:import:*", "img:thumb:*", "u:p:c:*"};

// Gives those keys idle times of 8 to 120 days (RESTORE … IDLETIME), so that the demo has cold memory to show: a
// freshly written keyspace is all hot.
redis::Status ageColdNamespaces(redis::Connection& connection, Random& random)
{
    for (const char* pattern : ColdPatterns) {
        QByteArray cursor = "0";
        do {
            redis::Result<redis::Reply> page = connection.command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
            if (!page)
                return page.error();
            cursor = page->at(0).bytes().toByteArray();
            std::vector<QByteArray> keys;
            std::vector<std::vector<QByteArray>> dumps;
            for (std::size_t i = 0; i < page->at(1).size(); ++i) {
                keys.push_back(page->at(1).at(i).bytes().toByteArray());
                dumps.push_back({"DUMP", keys.back()});
            }
            redis::Result<std::vector<redis::Reply>> payloads = connection.pipeline(dumps);
            if (!payloads)
                return payloads.error();
            std::vector<std::vector<QByteArray>> restores;
            for (std::size_t i = 0; i < keys.size(); ++i) {
                if ((*payloads)[i].isNil() || (*payloads)[i].isError())
                    continue;
                restores.push_back({"RESTORE", keys[i], "0", (*payloads)[i].bytes().toByteArray(), "REPLACE",
                                    "IDLETIME", number(86400 * (8 + random.below(113)))});
            }
            if (!restores.empty()) {
                redis::Result<std::vector<redis::Reply>> restored = connection.pipeline(restores);
                if (!restored)
                    return restored.error();
            }
        } while (cursor != "0");
    }
    return {};
}

} // namespace

std::uint64_t demoFixedKeyCount()
{
    return fixedKeys().size();
}

redis::Status seedDemoKeyspace(redis::Connection& connection, const DemoOptions& options)
{
    Random random(options.seed);
    PipelineWriter writer(connection);
    const auto fixed = fixedKeys();
    const std::uint64_t fixedCount = std::min<std::uint64_t>(fixed.size(), options.keys);
    for (std::uint64_t i = 0; i < fixedCount; ++i)
        fixed[i](writer, random);

    const auto kinds = families();
    double totalWeight = 0;
    for (const Family& family : kinds)
        totalWeight += family.weight;
    const std::uint64_t scaled = options.keys - fixedCount;
    std::vector<std::uint64_t> counts;
    std::uint64_t assigned = 0;
    for (const Family& family : kinds) {
        counts.push_back(static_cast<std::uint64_t>(static_cast<double>(scaled) * family.weight / totalWeight));
        assigned += counts.back();
    }
    counts.front() += scaled - assigned; // rounding leftovers go to the biggest family
    const auto stopped = [&] { return options.shouldStop && options.shouldStop(); };
    for (std::size_t f = 0; f < kinds.size(); ++f) {
        for (std::uint64_t i = 0; i < counts[f]; ++i) {
            if (i % 4096 == 0 && stopped())
                return redis::Error{redis::ErrorKind::Cancelled, QStringLiteral("seeding was interrupted")};
            kinds[f].write(writer, random, i);
        }
    }
    if (redis::Status written = writer.finish(); !written)
        return written;
    return ageColdNamespaces(connection, random);
}

} // namespace keylens::demo
