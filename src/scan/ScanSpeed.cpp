#include "scan/ScanSpeed.h"

#include <QHostAddress>

namespace keylens::scan {

QString speedName(ScanSpeed speed)
{
    return speed == ScanSpeed::Gentle ? QStringLiteral("gentle") : QStringLiteral("full");
}

std::optional<ScanSpeed> parseSpeed(const QString& name)
{
    if (name == QLatin1String("full"))
        return ScanSpeed::Full;
    if (name == QLatin1String("gentle"))
        return ScanSpeed::Gentle;
    return std::nullopt;
}

ScanSpeed defaultSpeedFor(const redis::ConnectionOptions& connection)
{
    if (connection.transport == redis::ConnectionOptions::Transport::Unix)
        return ScanSpeed::Full;
    // Through an SSH tunnel, 127.0.0.1 is the SSH server's loopback: a server elsewhere, most likely in production.
    if (connection.ssh.enabled())
        return ScanSpeed::Gentle;
    // Only what is loopback without asking DNS: a name that merely resolves to this machine may be a tunnel or a
    // proxy to somewhere else.
    if (connection.host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return ScanSpeed::Full;
    const QHostAddress address(connection.host);
    return !address.isNull() && address.isLoopback() ? ScanSpeed::Full : ScanSpeed::Gentle;
}

} // namespace keylens::scan
