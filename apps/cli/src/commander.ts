// commander is CommonJS. The build inlines it into the CLI's bundle (package.json
// `ollmBuild.inline`): no package to resolve, no CommonJS load and no scan of its exports at
// start, ~5 ms of every start (`ollm --help` included) against requiring it. Every CLI module
// imports it from here, so there is one copy (`instanceof CommanderError` holds).
export { Command, CommanderError, Help } from 'commander';
