#pragma once

#include "base/NextTurn.h"
#include "models/ConnectionTester.h"
#include "models/SavedConnections.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace keylens::ui {

class PasswordVault;
class SshGroup;
class TlsGroup;

// Connect to a server, and keep the connections one uses. The password of a saved connection goes to
// the OS keychain, or is asked for every time; it is never written to the settings file.
class ConnectionDialog : public QDialog
{
    Q_OBJECT
public:
    ConnectionDialog(models::SavedConnections* saved, PasswordVault* vault, QWidget* parent = nullptr);

    void selectProfile(const QString& id);
    // Fills the form (a profile to edit; the password field too, when given).
    void edit(const models::ConnectionProfile& profile, const QByteArray& password = {});
    // The recent connections, newest first, offered in a list above the saved ones: choosing one fills the form.
    // Each entry is a form to fill, listed by its name.
    void offerRecent(const std::vector<models::ConnectionProfile>& profiles);
    QComboBox* recentBox() const { return m_recent; }
    // What the user chose, after exec() returned Accepted.
    models::ConnectionProfile profile() const;
    QByteArray password() const;

    // Saves the form as a connection (and its password where the mode says). Public for tests.
    void saveCurrent();
    // Says what went wrong under the field it concerns: the address, the user and password, or the database.
    void showProblem(const redis::Error& error);
    // For tests: the problem shown under the address, the credentials and the database ("" when none).
    QString addressProblem() const;
    QString credentialsProblem() const;
    QString databaseProblem() const;
    QString tlsProblem() const;
    QString sshProblem() const;
    void testConnection();

Q_SIGNALS:
    void keychainProblem(const QString& reason);
    void tested(); // testConnection() has its answer (for tests)

private:
    void loadProfile(const models::ConnectionProfile& profile);
    QComboBox* m_recent = nullptr;
    std::vector<models::ConnectionProfile> m_recentProfiles;
    void newProfile();
    void removeCurrent();
    void clearProblems();
    void updateKind();

    models::SavedConnections* m_saved;
    PasswordVault* m_vault;
    QString m_currentId;

    QListView* m_list;
    QLineEdit* m_name;
    QComboBox* m_kind;
    QStackedWidget* m_kindPages;
    QLineEdit* m_host;
    QSpinBox* m_port;
    QLineEdit* m_socket;
    QLineEdit* m_uri;
    QLineEdit* m_user;
    QLineEdit* m_password;
    QComboBox* m_passwordMode;
    QSpinBox* m_db;
    QLineEdit* m_delimiter;
    QComboBox* m_lintProfile;
    QCheckBox* m_readOnly;
    QCheckBox* m_production;
    QComboBox* m_speed; // automatic, full, gentle
    QDoubleSpinBox* m_connectTimeout;
    QDoubleSpinBox* m_commandTimeout;
    QLineEdit* m_sentinels;
    QLineEdit* m_masterName;
    TlsGroup* m_tls;
    SshGroup* m_ssh;
    QPushButton* m_colour;
    QColor m_colourValue;
    QLabel* m_status;
    // Test connections, off the GUI thread (a dead host takes the whole connect timeout); a new test cancels the last,
    // closing the dialog cancels and joins it.
    models::ConnectionTester* m_tester;
    base::NextTurn m_grow{QStringLiteral("dialog grows"), this}; // to hold a problem, once laid out
    QLabel* m_addressProblem;
    QLabel* m_credentialsProblem;
    QLabel* m_databaseProblem;
};

} // namespace keylens::ui
