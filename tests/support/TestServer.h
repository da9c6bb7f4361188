#pragma once

#include "demo/RedisServerProcess.h"

#include <QTest>

// Starts a private redis-server for one test, or fails the test with the reason.
#define KEYLENS_START_SERVER(server, ...)                                                                              \
    do {                                                                                                               \
        const keylens::redis::Status started_ = (server).start(__VA_ARGS__);                                           \
        QVERIFY2(started_.ok(), started_.ok() ? "" : qPrintable(started_.error().message));                            \
    } while (false)
