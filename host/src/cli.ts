console.log('webbridge');
