#pragma once

#include "redis/ConnectionOptions.h"

class QSettings;

namespace keylens::models {

// TLS options under "tls/" in the settings group or array entry the caller has open: one layout for saved and
// recent connections alike.
redis::TlsOptions readTlsSettings(const QSettings& settings);
void writeTlsSettings(QSettings& settings, const redis::TlsOptions& tls);

} // namespace keylens::models
