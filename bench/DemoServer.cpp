#include "DemoServer.h"

#include "demo/DemoKeyspace.h"
#include "redis/Connection.h"

#include <QElapsedTimer>

#include <cstdio>

bool startDemoServer(keylens::demo::RedisServerProcess& server, std::uint64_t keys,
                     const keylens::demo::RedisServerProcess::Options& options, double* seconds)
{
    using namespace keylens;
    if (redis::Status started = server.start(options); !started) {
        std::fprintf(stderr, "%s\n", qPrintable(started.error().message));
        return false;
    }
    QElapsedTimer clock;
    clock.start();
    // The server's own options time out after 2 s, which a 10,000,000-key pipeline's rehashing can take.
    redis::ConnectionOptions seeding = server.connectionOptions();
    seeding.commandTimeoutMs = 120000;
    auto connection = redis::Connection::open(seeding);
    demo::DemoOptions demoOptions;
    demoOptions.keys = keys;
    if (!connection || !demo::seedDemoKeyspace(**connection, demoOptions)) {
        std::fprintf(stderr, "seeding the demo keyspace failed\n");
        return false;
    }
    if (seconds)
        *seconds = static_cast<double>(clock.elapsed()) / 1000.0;
    return true;
}
