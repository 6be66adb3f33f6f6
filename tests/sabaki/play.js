// A game between GNU Go and the Go Gadget board, refereed by Sabaki's GTP
// library (@sabaki/gtp), a controller nobody on this project wrote.
// usage: node play.js GNUGO_PATH PYTHON [SEED]   -> one JSON line on stdout
const {Controller} = require('@sabaki/gtp')

async function send(engine, name, ...args) {
  const response = await engine.sendCommand({name, args})
  if (response.error) throw new Error(`${name} ${args.join(' ')}: ${response.content}`)
  return response.content
}

async function main() {
  const [gnugoPath, python, seed = '1'] = process.argv.slice(2)
  const gnugo = new Controller(gnugoPath, ['--mode', 'gtp', '--level', '0', '--seed', '5'])
  const board = new Controller(python, ['-m', 'host_sim.cli', 'gtp', '--sim', '--auto', '--seed', seed])
  gnugo.start()
  board.start()
  const result = {moves: [], boardName: '', boardSgf: '', gnugoHistory: '', error: null}
  try {
    result.boardName = await send(board, 'name')
    for (const engine of [gnugo, board]) {
      await send(engine, 'boardsize', '9')
      await send(engine, 'clear_board')
      await send(engine, 'komi', '7.5')
    }
    // The board is White here: the person at it answers genmove w.
    const players = {B: gnugo, W: board}
    const others = {B: board, W: gnugo}
    let colour = 'B'
    let passes = 0
    while (passes < 2 && result.moves.length < 300) {
      const move = await send(players[colour], 'genmove', colour)
      result.moves.push([colour, move])
      if (move.toLowerCase() === 'resign') break
      await send(others[colour], 'play', colour, move)
      passes = move.toLowerCase() === 'pass' ? passes + 1 : 0
      colour = colour === 'B' ? 'W' : 'B'
    }
    result.boardSgf = await send(board, 'gogadget-sgf')
    result.gnugoHistory = await send(gnugo, 'move_history')
  } catch (err) {
    result.error = String(err)
  } finally {
    await Promise.all([gnugo.stop(5000), board.stop(5000)])
  }
  process.stdout.write(JSON.stringify(result) + '\n')
}

main().catch(err => {
  process.stdout.write(JSON.stringify({error: String(err)}) + '\n')
  process.exit(1)
})
