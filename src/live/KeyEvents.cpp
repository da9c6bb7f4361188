#include "live/KeyEvents.h"

namespace keylens::live {

std::optional<KeyEvent> keyEventOf(QByteArrayView name)
{
    if (name == "expired")
        return KeyEvent::Expired;
    if (name == "evicted")
        return KeyEvent::Evicted;
    if (name == "del" || name == "unlink" || name == "rename_from" || name == "move_from")
        return KeyEvent::Delete;
    if (name == "new" || name == "keymiss" || name.isEmpty())
        return std::nullopt;
    return KeyEvent::Write;
}

QByteArray keyEventChannels(int db)
{
    return QByteArray("__keyevent@").append(QByteArray::number(db)).append("__:*");
}

QByteArrayView eventNameOf(QByteArrayView channel)
{
    constexpr QByteArrayView Prefix("__keyevent@");
    if (!channel.startsWith(Prefix))
        return {};
    const qsizetype colon = channel.indexOf(QByteArrayView("__:"), Prefix.size());
    return colon < 0 ? QByteArrayView() : channel.sliced(colon + 3);
}

} // namespace keylens::live
