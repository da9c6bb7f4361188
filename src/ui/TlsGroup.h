#pragma once

#include "redis/ConnectionOptions.h"

#include <QGroupBox>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace keylens::ui {

class PathField;

// The connection dialog's TLS settings, as redis-cli's flags have them: the CAs to trust, a client certificate, the
// name to check. Checkable: unchecked is no TLS.
class TlsGroup : public QGroupBox
{
    Q_OBJECT
public:
    explicit TlsGroup(QWidget* parent = nullptr);

    void setOptions(const redis::TlsOptions& tls);
    redis::TlsOptions options() const;
    // A TLS failure, shown under the fields ("" clears it); what is shown, for tests.
    void showProblem(const QString& text);
    QString problem() const;

private:
    PathField* m_caCert;
    PathField* m_caCertDir;
    PathField* m_clientCert;
    PathField* m_clientKey;
    QLineEdit* m_serverName;
    QCheckBox* m_insecure;
    QLabel* m_problem;
};

} // namespace keylens::ui
