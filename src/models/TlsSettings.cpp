#include "models/TlsSettings.h"

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

} // namespace keylens::models
