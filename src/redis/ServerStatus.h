#pragma once

#include "redis/Error.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <array>
#include <utility>
#include <vector>

namespace keylens::redis {

class Connection;

// One section of INFO as the server answered it, or why it did not.
struct InfoSection
{
    bool available = false;
    QString problem; // the refusal, when not available
    std::vector<std::pair<QByteArray, QByteArray>> fields;

    // A field's value, or an empty view when the section or the field is missing.
    QByteArrayView value(QByteArrayView field) const;
    bool has(QByteArrayView field) const;
    // A numeric field; `fallback` when it is missing or not a number.
    double number(QByteArrayView field, double fallback = 0) const;
};

// What the server panel shows: the INFO sections it reads, each asked on its own so that one a proxy or a managed
// service refuses leaves the others.
struct ServerStatus
{
    enum Section { Server, Clients, Memory, Persistence, Stats, Replication, Keyspace, SectionCount };
    std::array<InfoSection, SectionCount> sections;

    const InfoSection& section(Section which) const { return sections[std::size_t(which)]; }
    static QByteArrayView sectionName(Section which); // "server", "clients"...
};

// INFO server, clients, memory, persistence, stats, replication and keyspace, pipelined. An error only when the
// connection fails; refusals are kept per section.
Result<ServerStatus> readServerStatus(Connection& connection);

// Parses INFO's text ("# Server\r\nredis_version:7.0.15\r\n...") into fields, in order.
std::vector<std::pair<QByteArray, QByteArray>> parseInfoFields(QByteArrayView info);

// A "k1=v1,k2=v2" value (a keyspace line "keys=3,expires=1,avg_ttl=0", a replica line) split into pairs.
std::vector<std::pair<QByteArray, QByteArray>> parseInfoList(QByteArrayView value);

} // namespace keylens::redis
