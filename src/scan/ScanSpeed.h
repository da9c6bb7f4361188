#pragma once

#include "redis/ConnectionOptions.h"

#include <QString>

#include <optional>

namespace keylens::scan {

// How hard a scan may lean on the server.
//   Full:   SCAN COUNT 1000 and the next SCAN and questions in flight while answers are read: as fast as the server
//           answers, for a local server or one nobody else is using.
//   Gentle: SCAN COUNT 100, questions about 32 keys at a time, one round in flight, a rest as long as each round
//           took, and longer rests while the server answers slower than it did (LatencyGuard). Each round holds the
//           server for tens of microseconds instead of 1-2 ms, so other clients' latency barely moves.
enum class ScanSpeed { Full, Gentle };

QString speedName(ScanSpeed speed); // "full", "gentle"
std::optional<ScanSpeed> parseSpeed(const QString& name);

// Gentle for any server that is not on loopback or a Unix socket, full for local ones.
ScanSpeed defaultSpeedFor(const redis::ConnectionOptions& connection);

} // namespace keylens::scan
