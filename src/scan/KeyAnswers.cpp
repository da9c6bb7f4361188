#include "scan/KeyAnswers.h"

#include "keyspace/KeyType.h"

namespace keylens::scan {

bool keyFromAnswers(const KeyAnswers& answers, std::int64_t nowMs, keyspace::KeyInfo* info)
{
    const auto& [type, pttl, memory, access, accessAsked, memoryCheck, checkAsked] = answers;
    // Each field is known or unknown on its own: a denied PTTL leaves the type known, and the other way round.
    // Unknown is never counted as "no TTL" or as zero bytes.
    *info = keyspace::KeyInfo();
    info->expiresAtMs = keyspace::ExpiryUnknown;
    bool present = true;
    if (type && !type->isError()) {
        if (type->bytes() == "none")
            present = false;
        else
            info->type = keyspace::keyTypeFromName(type->bytes());
    }
    if (pttl && !pttl->isError()) {
        if (pttl->integer() == -2)
            present = false;
        else
            info->expiresAtMs = pttl->integer() >= 0 ? nowMs + pttl->integer() : keyspace::NoExpiry;
    }
    if (memory && !memory->isError()) {
        if (memory->isNil()) {
            present = false;
        } else if (memory->isInteger()) {
            info->memoryBytes = static_cast<std::uint64_t>(memory->integer());
            info->memoryMeasured = true;
        }
    }
    if (info->memoryMeasured && memoryCheck && !memoryCheck->isError()) {
        if (memoryCheck->isNil()) {
            present = false;
        } else if (memoryCheck->isInteger()) {
            const auto again = static_cast<std::uint64_t>(memoryCheck->integer());
            if (checkAsked == MemoryCheck::Whole)
                info->memoryBytes = again;
            else
                info->memorySampled = again != info->memoryBytes;
        }
    }
    if (access && !access->isError()) {
        if (access->isNil())
            present = false;
        else if (access->isInteger() && accessAsked == AccessQuestion::IdleTime)
            info->access = keyspace::KeyAccess::lastAccessAt(nowMs / 1000 - access->integer());
        else if (access->isInteger() && accessAsked == AccessQuestion::Frequency)
            info->access = keyspace::KeyAccess::frequency(int(access->integer()));
    }
    return present;
}

bool isRedirect(const std::optional<redis::Reply>& answer)
{
    return answer && answer->isError() && (answer->bytes().startsWith("MOVED ") || answer->bytes().startsWith("ASK "));
}

} // namespace keylens::scan
