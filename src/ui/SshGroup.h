#pragma once

#include "redis/ConnectionOptions.h"
#include "ui/FoldingGroup.h"

class QLineEdit;
class QSpinBox;

namespace keylens::ui {

class PathField;

// The connection dialog's SSH tunnel: the SSH server, its user, and the key to log in with (empty: ssh-agent).
// Checkable: unchecked is a direct connection.
class SshGroup : public FoldingGroup
{
    Q_OBJECT
public:
    explicit SshGroup(QWidget* parent = nullptr);

    void setOptions(const redis::SshOptions& ssh);
    // Disabled (no host) when unchecked or when no SSH server is given.
    redis::SshOptions options() const;

private:
    QLineEdit* m_host;
    QSpinBox* m_port;
    QLineEdit* m_user;
    PathField* m_identity;
    PathField* m_knownHosts;
};

} // namespace keylens::ui
