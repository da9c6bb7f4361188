#pragma once

#include "redis/ConnectionOptions.h"
#include "ui/FoldingGroup.h"

class QCheckBox;
class QLineEdit;

namespace keylens::ui {

class PathField;

// The connection dialog's TLS settings, as redis-cli's flags have them: the CAs to trust, a client certificate, the
// name to check. Checkable: unchecked is no TLS.
class TlsGroup : public FoldingGroup
{
    Q_OBJECT
public:
    explicit TlsGroup(QWidget* parent = nullptr);

    void setOptions(const redis::TlsOptions& tls);
    redis::TlsOptions options() const;

private:
    PathField* m_caCert;
    PathField* m_caCertDir;
    PathField* m_clientCert;
    PathField* m_clientKey;
    QLineEdit* m_serverName;
    QCheckBox* m_insecure;
};

} // namespace keylens::ui
