#include "models/TransportSettings.h"

#include <QSettings>

namespace keylens::models {

redis::TlsOptions readTlsSettings(const QSettings& settings)
{
    redis::TlsOptions tls;
    tls.enabled = settings.value(QStringLiteral("tls/enabled"), false).toBool();
    tls.caCertFile = settings.value(QStringLiteral("tls/cacert")).toString();
    tls.caCertDir = settings.value(QStringLiteral("tls/cacertdir")).toString();
    tls.certFile = settings.value(QStringLiteral("tls/cert")).toString();
    tls.keyFile = settings.value(QStringLiteral("tls/key")).toString();
    tls.serverName = settings.value(QStringLiteral("tls/sni")).toString();
    tls.insecure = settings.value(QStringLiteral("tls/insecure"), false).toBool();
    return tls;
}

void writeTlsSettings(QSettings& settings, const redis::TlsOptions& tls)
{
    settings.setValue(QStringLiteral("tls/enabled"), tls.enabled);
    settings.setValue(QStringLiteral("tls/cacert"), tls.caCertFile);
    settings.setValue(QStringLiteral("tls/cacertdir"), tls.caCertDir);
    settings.setValue(QStringLiteral("tls/cert"), tls.certFile);
    settings.setValue(QStringLiteral("tls/key"), tls.keyFile);
    settings.setValue(QStringLiteral("tls/sni"), tls.serverName);
    settings.setValue(QStringLiteral("tls/insecure"), tls.insecure);
}

redis::SshOptions readSshSettings(const QSettings& settings)
{
    redis::SshOptions ssh;
    ssh.host = settings.value(QStringLiteral("ssh/host")).toString();
    ssh.port = quint16(settings.value(QStringLiteral("ssh/port"), ssh.port).toUInt());
    ssh.user = settings.value(QStringLiteral("ssh/user")).toString();
    ssh.identityFile = settings.value(QStringLiteral("ssh/identity")).toString();
    ssh.knownHostsFile = settings.value(QStringLiteral("ssh/knownHosts")).toString();
    return ssh;
}

void writeSshSettings(QSettings& settings, const redis::SshOptions& ssh)
{
    settings.setValue(QStringLiteral("ssh/host"), ssh.host);
    settings.setValue(QStringLiteral("ssh/port"), ssh.port);
    settings.setValue(QStringLiteral("ssh/user"), ssh.user);
    settings.setValue(QStringLiteral("ssh/identity"), ssh.identityFile);
    settings.setValue(QStringLiteral("ssh/knownHosts"), ssh.knownHostsFile);
}

} // namespace keylens::models
