#include "keyspace/KeyType.h"

namespace keylens::keyspace {

namespace {
constexpr std::array<QByteArrayView, KeyTypeCount> typeNames = {
    QByteArrayView("string"), QByteArrayView("hash"),   QByteArrayView("list"),  QByteArrayView("set"),
    QByteArrayView("zset"),   QByteArrayView("stream"), QByteArrayView("other"), QByteArrayView("unknown"),
};
}

QByteArrayView keyTypeName(KeyType type)
{
    return typeNames[static_cast<std::size_t>(type)];
}

KeyType keyTypeFromName(QByteArrayView name)
{
    // Only the six core types are recognised; "other"/"unknown" are our own labels, not server replies.
    for (int i = 0; i <= static_cast<int>(KeyType::Stream); ++i) {
        if (name == typeNames[static_cast<std::size_t>(i)])
            return static_cast<KeyType>(i);
    }
    return KeyType::Other;
}

} // namespace keylens::keyspace
