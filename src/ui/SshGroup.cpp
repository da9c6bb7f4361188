#include "ui/SshGroup.h"

#include "ui/PathField.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace keylens::ui {

SshGroup::SshGroup(QWidget* parent)
    : FoldingGroup(tr("SSH tunnel"), parent)
    , m_host(new QLineEdit)
    , m_port(new QSpinBox)
    , m_user(new QLineEdit)
    , m_identity(new PathField(tr("Identity file"), tr("ssh-agent and ssh's own keys"), PathField::Kind::File))
    , m_knownHosts(new PathField(tr("Known hosts file"), QStringLiteral("~/.ssh/known_hosts"), PathField::Kind::File))
{
    setObjectName(QStringLiteral("ssh"));
    setToolTip(tr("Runs the system's ssh (ssh -N -L), so your ~/.ssh/config, ssh-agent and known_hosts "
                  "apply. The Redis address above is then the server as the SSH server reaches it "
                  "(often 127.0.0.1). ssh never prompts here: accept a new host key with ssh in a "
                  "terminal first, and load a key with a passphrase into ssh-agent."));
    m_host->setObjectName(QStringLiteral("sshHost"));
    m_host->setPlaceholderText(QStringLiteral("bastion.example.com"));
    m_port->setObjectName(QStringLiteral("sshPort"));
    m_port->setRange(1, 65535);
    m_port->setValue(22);
    m_user->setObjectName(QStringLiteral("sshUser"));
    m_user->setPlaceholderText(tr("as in ~/.ssh/config, else your user name"));
    m_identity->edit()->setObjectName(QStringLiteral("sshIdentity"));
    m_knownHosts->edit()->setObjectName(QStringLiteral("sshKnownHosts"));
    auto* hostRow = new QHBoxLayout;
    hostRow->addWidget(m_host, 1);
    hostRow->addWidget(new QLabel(tr("Port")));
    hostRow->addWidget(m_port);
    QFormLayout* form = this->form();
    form->addRow(tr("SSH server"), hostRow);
    form->addRow(tr("SSH user"), m_user);
    form->addRow(tr("Identity file"), m_identity);
    form->addRow(tr("Known hosts"), m_knownHosts);
    addProblemRow();
    for (QLineEdit* edit : {m_host, m_user, m_identity->edit(), m_knownHosts->edit()})
        connect(edit, &QLineEdit::textEdited, this, [this] { showProblem({}); });
}

void SshGroup::setOptions(const redis::SshOptions& ssh)
{
    setChecked(ssh.enabled());
    m_host->setText(ssh.host);
    m_port->setValue(ssh.port);
    m_user->setText(ssh.user);
    m_identity->setPath(ssh.identityFile);
    m_knownHosts->setPath(ssh.knownHostsFile);
}

redis::SshOptions SshGroup::options() const
{
    redis::SshOptions ssh;
    if (!isChecked())
        return ssh;
    ssh.host = m_host->text().trimmed();
    ssh.port = quint16(m_port->value());
    ssh.user = m_user->text().trimmed();
    ssh.identityFile = m_identity->path();
    ssh.knownHostsFile = m_knownHosts->path();
    return ssh;
}

} // namespace keylens::ui
