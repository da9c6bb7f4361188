#include "redis/ServerStatus.h"

#include "redis/Connection.h"
#include "redis/ServerInfo.h"

#include <QByteArrayList>

namespace keylens::redis {

QByteArrayView InfoSection::value(QByteArrayView field) const
{
    for (const auto& [name, value] : fields) {
        if (name == field)
            return value;
    }
    return {};
}

bool InfoSection::has(QByteArrayView field) const
{
    for (const auto& entry : fields) {
        if (entry.first == field)
            return true;
    }
    return false;
}

double InfoSection::number(QByteArrayView field, double fallback) const
{
    bool ok = false;
    const double parsed = value(field).toByteArray().toDouble(&ok);
    return ok ? parsed : fallback;
}

QByteArrayView ServerStatus::sectionName(Section which)
{
    switch (which) {
    case Server:
        return "server";
    case Clients:
        return "clients";
    case Memory:
        return "memory";
    case Persistence:
        return "persistence";
    case Stats:
        return "stats";
    case Replication:
        return "replication";
    case Keyspace:
        return "keyspace";
    case SectionCount:
        break;
    }
    return {};
}

std::vector<std::pair<QByteArray, QByteArray>> parseInfoFields(QByteArrayView info)
{
    std::vector<std::pair<QByteArray, QByteArray>> fields;
    forEachInfoField(info, [&fields](QByteArrayView name, QByteArrayView value) {
        fields.emplace_back(name.toByteArray(), value.toByteArray());
        return true;
    });
    return fields;
}

std::vector<std::pair<QByteArray, QByteArray>> parseInfoList(QByteArrayView value)
{
    std::vector<std::pair<QByteArray, QByteArray>> pairs;
    const QByteArrayList items = value.toByteArray().split(',');
    for (const QByteArray& item : items) {
        const qsizetype equals = item.indexOf('=');
        if (equals > 0)
            pairs.emplace_back(item.first(equals), item.sliced(equals + 1));
    }
    return pairs;
}

Result<ServerStatus> readServerStatus(Connection& connection)
{
    ServerStatus status;
    for (int i = 0; i < ServerStatus::SectionCount; ++i)
        connection.append({"INFO", ServerStatus::sectionName(ServerStatus::Section(i))});
    for (int i = 0; i < ServerStatus::SectionCount; ++i) {
        Result<Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        InfoSection& section = status.sections[std::size_t(i)];
        if (reply->isString()) {
            section.available = true;
            section.fields = parseInfoFields(reply->bytes());
        } else {
            section.problem =
                reply->isError() ? errorFromReply(reply->bytes(), "INFO").message : QStringLiteral("INFO gave no text");
        }
    }
    return status;
}

} // namespace keylens::redis
