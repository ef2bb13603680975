/// ReactorKit's and RxSwift's surface beyond what the app runs on, over the core it re-exports:
/// time (`interval`, `timer`, `debounce`, `throttle`, `delay`), several streams at once
/// (`combineLatest`, `zip`, `withLatestFrom`), sharing (`share(replay:)`), async sequences,
/// blocking, `MainScheduler` (from `MainLoop`), and the per-instance storage of reactors and views that do not declare their own.
/// `import ReactorKitCompat` is what code written for ReactorKit imports (its own tests do:
/// scripts/reactorkit-tests); the app imports `ReactorCore` alone.
@_exported import ReactorCore
@_exported import MainLoop
