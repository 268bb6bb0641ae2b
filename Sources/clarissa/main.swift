import ClarissaCommands

await Clarissa.runFromCommandLine()
