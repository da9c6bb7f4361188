#include "redis/ChildEnvironment.h"

namespace keylens::redis {

QProcessEnvironment childEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("REDISCLI_AUTH"));
    environment.remove(QStringLiteral("REDIS_URL"));
    return environment;
}

} // namespace keylens::redis
