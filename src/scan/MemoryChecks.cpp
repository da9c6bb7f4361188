#include "scan/MemoryChecks.h"

#include "keyspace/KeyType.h"

#include <algorithm>

namespace keylens::scan {

std::size_t appendMemoryChecks(redis::Connection& connection, std::vector<KeyAnswers>& answers,
                               const std::function<QByteArrayView(std::size_t)>& keyAt, std::uint64_t exactCap)
{
    std::size_t checks = 0;
    for (std::size_t i = 0; i < answers.size(); ++i) {
        KeyAnswers& key = answers[i];
        if (!key.memory || !key.memory->isInteger() || !key.type || key.type->isError())
            continue;
        key.checkAsked = memoryCheckFor(keyspace::keyTypeFromName(key.type->bytes()),
                                        std::uint64_t(std::max<long long>(0, key.memory->integer())), exactCap);
        if (key.checkAsked == MemoryCheck::None)
            continue;
        connection.append({"MEMORY", "USAGE", keyAt(i), "SAMPLES", samplesArgument(key.checkAsked)});
        ++checks;
    }
    return checks;
}

std::optional<redis::Error> readMemoryChecks(redis::Connection& connection, std::vector<KeyAnswers>& answers)
{
    for (KeyAnswers& key : answers) {
        if (key.checkAsked == MemoryCheck::None)
            continue;
        redis::Result<redis::Reply> reply = connection.read();
        if (!reply)
            return reply.error();
        if (reply->isError()) {
            const redis::Error error = redis::errorFromReply(reply->bytes(), "MEMORY USAGE");
            if (error.isTransient())
                return error;
        }
        key.memoryCheck = std::move(*reply);
    }
    return std::nullopt;
}

} // namespace keylens::scan
