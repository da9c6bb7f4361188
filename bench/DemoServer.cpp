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
    QElapsedTimer seeding;
    seeding.start();
    auto connection = redis::Connection::open(server.connectionOptions());
    demo::DemoOptions demoOptions;
    demoOptions.keys = keys;
    if (!connection || !demo::seedDemoKeyspace(**connection, demoOptions)) {
        std::fprintf(stderr, "seeding the demo keyspace failed\n");
        return false;
    }
    if (seconds)
        *seconds = static_cast<double>(seeding.elapsed()) / 1000.0;
    return true;
}
