#include "redis/HiredisVersion.h"

#include <hiredis/hiredis.h>

namespace keylens::redis {

QString hiredisVersion()
{
    return QStringLiteral("%1.%2.%3").arg(HIREDIS_MAJOR).arg(HIREDIS_MINOR).arg(HIREDIS_PATCH);
}

} // namespace keylens::redis
