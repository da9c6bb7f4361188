#pragma once

#include "redis/ConnectionOptions.h"

class QSettings;

namespace keylens::models {

// What a URI cannot say about the way to a server, in the settings group or array entry the caller has open: TLS
// files under "tls/", the SSH tunnel under "ssh/". One layout for saved and recent connections alike.
redis::TlsOptions readTlsSettings(const QSettings& settings);
void writeTlsSettings(QSettings& settings, const redis::TlsOptions& tls);
redis::SshOptions readSshSettings(const QSettings& settings);
void writeSshSettings(QSettings& settings, const redis::SshOptions& ssh);

} // namespace keylens::models
