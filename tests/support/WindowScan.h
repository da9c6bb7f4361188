#pragma once

#include "ui/MainWindow.h"

#include <QSignalSpy>

namespace keylens::test {

// Connects `window` to the server of `options` and waits for the scan to end: where most window tests start. False
// when it did not end within a minute.
inline bool scanInWindow(ui::MainWindow& window, const redis::ConnectionOptions& options)
{
    ui::MainWindow::Target target;
    target.options = options;
    QSignalSpy finished(&window, &ui::MainWindow::scanFinished);
    window.connectTo(target);
    return finished.wait(60000);
}

} // namespace keylens::test
