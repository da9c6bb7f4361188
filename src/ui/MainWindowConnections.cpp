// Where the window connects, and how it recovers when that fails: the connection dialog (filled with what failed,
// the problem under its field), saved and recent connections, and a password asked for when the server wants one
// or refused the one given. Apart from MainWindow.cpp, which is the shell.
#include "models/RecentConnections.h"
#include "models/SavedConnections.h"
#include "ui/BrowserPane.h"
#include "ui/ConnectionDialog.h"
#include "ui/ConsoleView.h"
#include "ui/CredentialsDialog.h"
#include "ui/MainWindow.h"
#include "ui/PasswordVault.h"
#include "ui/ScanStatusBar.h"

#include <QLabel>
#include <QMessageBox>

namespace keylens::ui {

namespace {

bool isRefusedLogin(const redis::Error& error)
{
    return error.kind == redis::ErrorKind::AuthFailed || error.kind == redis::ErrorKind::AuthRequired;
}

} // namespace

void MainWindow::openConnectionDialog()
{
    ConnectionDialog dialog(m_saved, m_vault, this);
    dialog.offerRecent(m_recent->unsavedProfiles());
    connect(&dialog, &ConnectionDialog::keychainProblem, this,
            [this](const QString& reason) { QMessageBox::warning(this, tr("No keychain"), reason); });
    // After a failure the dialog opens on what failed, saying why under the field concerned, rather than on
    // 127.0.0.1:6379.
    if (m_connectFailure && m_hasTarget) {
        if (!m_target.savedId.isEmpty() && m_saved->find(m_target.savedId))
            dialog.selectProfile(m_target.savedId);
        else
            dialog.edit(m_target.toProfile());
        dialog.showProblem(*m_connectFailure);
    }
    if (dialog.exec() != QDialog::Accepted)
        return;
    const models::ConnectionProfile profile = dialog.profile();
    const QByteArray password = dialog.password();
    redis::Result<Target> target = Target::fromProfile(profile, password);
    if (!target) {
        showConnectionProblem(target.error().message);
        return;
    }
    if (password.isEmpty() && profile.passwordMode == models::ConnectionProfile::PasswordMode::AskEveryTime)
        askForCredentials(*target, CredentialsDialog::Reason::Required);
    else
        connectTo(*target);
}

void MainWindow::openSavedConnection(const QString& idOrName)
{
    const models::ConnectionProfile* profile = m_saved->find(idOrName);
    if (!profile) {
        showConnectionProblem(tr("There is no saved connection named '%1'.").arg(idOrName));
        return;
    }
    const models::ConnectionProfile copy = *profile;
    const auto connectWith = [this, copy](const QByteArray& password, bool ask) {
        redis::Result<Target> target = Target::fromProfile(copy, password);
        if (!target)
            showConnectionProblem(target.error().message);
        else if (ask)
            askForCredentials(*target, CredentialsDialog::Reason::Required);
        else
            connectTo(*target);
    };
    switch (copy.passwordMode) {
    case models::ConnectionProfile::PasswordMode::None:
        connectWith({}, false);
        break;
    case models::ConnectionProfile::PasswordMode::AskEveryTime:
        connectWith({}, true);
        break;
    case models::ConnectionProfile::PasswordMode::Keychain:
        m_vault->read(copy.id, [this, connectWith](const QByteArray& password, const QString& error) {
            if (!error.isEmpty())
                showConnectionProblem(tr("The keychain did not give the password: %1").arg(error));
            else
                connectWith(password, false);
        });
        break;
    }
}

void MainWindow::openRecentConnection(const models::RecentConnection& connection)
{
    if (!connection.savedId.isEmpty() && m_saved->find(connection.savedId)) {
        openSavedConnection(connection.savedId);
        return;
    }
    const redis::Result<Target> target = Target::fromRecent(connection);
    if (!target)
        showConnectionProblem(target.error().message);
    else
        connectTo(*target);
}

void MainWindow::showConnectionProblem(const QString& message)
{
    showBrowser(); // the banner is above the tree
    m_browser->showBanner(message);
    m_status->showMessage(message);
}

void MainWindow::connectionFailed(const redis::Error& error)
{
    m_connectFailure = error;
    m_console->serverUnreachable(error.message);
    if (!isRefusedLogin(error) || m_screenshot) {
        showConnectionProblem(error.message);
        return;
    }
    // A password the server wants, or refused: ask for it, with the user, instead of the command line's advice
    // ("give -a PASSWORD…") in the window.
    const QString server = m_target.displayName();
    const bool required = error.kind == redis::ErrorKind::AuthRequired;
    showConnectionProblem(required ? tr("%1 asks for a password. Rescan (F5) to give it.").arg(server)
                                   : tr("%1 refused the user and password. Rescan (F5) to give others.").arg(server));
    askAgainForCredentials();
}

void MainWindow::askAgainForCredentials()
{
    askForCredentials(m_target, m_connectFailure && m_connectFailure->kind == redis::ErrorKind::AuthRequired
                                    ? CredentialsDialog::Reason::Required
                                    : CredentialsDialog::Reason::Refused);
}

bool MainWindow::loginWasRefused() const
{
    return m_connectFailure && isRefusedLogin(*m_connectFailure);
}

CredentialsDialog* MainWindow::askForCredentials(const Target& target, CredentialsDialog::Reason reason)
{
    if (auto* asking = findChild<CredentialsDialog*>(); asking && asking->isVisible())
        return asking; // one question at a time
    const QString server = target.displayName();
    auto* dialog = new CredentialsDialog(server, reason, target.options.user, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const models::ConnectionProfile* saved = target.savedId.isEmpty() ? nullptr : m_saved->find(target.savedId);
    if (saved && saved->passwordMode == models::ConnectionProfile::PasswordMode::Keychain)
        dialog->offerKeychain(true);
    connect(dialog, &QDialog::accepted, this, [this, dialog, target] {
        Target retry = target;
        retry.options.user = dialog->user();
        retry.options.password = dialog->password();
        retry.options.hasPassword = !retry.options.password.isEmpty();
        if (dialog->storeInKeychain()) {
            if (const models::ConnectionProfile* profile = m_saved->find(retry.savedId);
                profile && profile->user != retry.options.user) {
                models::ConnectionProfile changed = *profile;
                changed.user = retry.options.user;
                m_saved->save(changed);
            }
            m_vault->store(retry.savedId, retry.options.password, [this](const QString& error) {
                if (!error.isEmpty())
                    m_status->showMessage(tr("The password was not kept in the keychain: %1").arg(error));
            });
        }
        connectTo(retry);
    });
    dialog->open();
    return dialog;
}

} // namespace keylens::ui
