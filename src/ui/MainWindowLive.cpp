// The live tree's part of the window: the session that follows the server, its bar above the tree, the Writes/s
// column, and the Scan > Follow live changes setting.

#include "models/KeyTreeModel.h"
#include "models/KeyspaceView.h"
#include "models/LiveSession.h"
#include "models/ScanSession.h"
#include "models/StoreChanges.h"
#include "ui/BrowserPane.h"
#include "ui/KeyTreeDelegate.h"
#include "ui/LiveBar.h"
#include "ui/MainWindow.h"
#include "ui/ScanStatusBar.h"
#include "ui/WindowActions.h"

#include <QSettings>
#include <QTreeView>

namespace keylens::ui {

void MainWindow::createLiveView()
{
    m_live = new models::LiveSession(m_session, this);
    m_session->model()->setWriteRates(&m_live->rates());
    m_liveBar = new LiveBar(m_live);
    m_browser->addBar(m_liveBar);
    connect(m_liveBar, &LiveBar::rescanRequested, this, &MainWindow::rescan);
    connect(m_live, &models::LiveSession::stateChanged, this,
            [this] { showWritesColumn(*m_browser->tree(), m_live->state() == models::LiveSession::State::Following); });
    // The status line's totals are the store's as it follows.
    connect(m_session->changes(), &models::StoreChanges::storeEdited, this, [this] {
        const models::KeyspaceView& store = m_session->view();
        m_status->showStoreNow(store.keyCount(), store.stats(store.root()).memoryBytes,
                               m_live->state() == models::LiveSession::State::Following);
    });
    connect(m_actions->followLive, &QAction::toggled, this, [this](bool on) {
        m_settings->setValue(QStringLiteral("scan/followLive"), on);
        m_live->setEnabled(on);
    });
}

} // namespace keylens::ui
